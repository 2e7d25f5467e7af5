package dev.cumulus.cli.launch.mains;

/** A class without a main method. */
public final class NoMain {
    private NoMain() {
    }

    public void main(int notTheRightSignature) {
        // not a launcher entry point
    }
}
