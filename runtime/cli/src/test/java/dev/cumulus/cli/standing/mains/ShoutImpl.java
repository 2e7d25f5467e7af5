package dev.cumulus.cli.standing.mains;

/** Prints what it is given. */
public class ShoutImpl implements Shout {
    @Override
    public String shout(String what) {
        System.out.println("hello from " + what);
        return what + " done";
    }
}
