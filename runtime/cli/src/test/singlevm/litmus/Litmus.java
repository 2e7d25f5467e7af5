package litmus;

import java.util.List;

/**
 * Java-memory-model litmus tests as an ordinary multithreaded program, run unchanged by
 * {@code cumulus run --single-vm --nodes N}: each test's actors are threads the program starts, so they run on
 * different nodes, and the objects they race on are homed on different nodes (each actor allocates some, main others).
 * Every round every actor plays its part between two rendezvous; the outcomes the JMM forbids are counted and any
 * one of them fails the run (exit code 1). Arguments: the number of rounds per test.
 */
public final class Litmus {
    private Litmus() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1 || !args[0].matches("[1-9][0-9]{0,8}")) {
            throw new IllegalArgumentException("usage: litmus.Litmus ROUNDS (a positive number), got "
                + String.join(" ", args));
        }
        int rounds = Integer.parseInt(args[0]);
        List<LitmusTest> tests = List.of(new MessagePassing(MessagePassing.Signal.VOLATILE),
            new MessagePassing(MessagePassing.Signal.MONITOR), new MessagePassing(MessagePassing.Signal.WAIT_NOTIFY),
            new ArrayPassing(), new LargeArrays(), new PublishedWrites(), new StaticPassing(),
            new StoreBuffering(), new IndependentReads(), new FinalFields());
        long forbidden = 0;
        for (LitmusTest t : tests) {
            forbidden += t.run(rounds);
        }
        forbidden += new StartJoin().run(Math.max(1, rounds / 10));
        if (forbidden > 0) {
            throw new IllegalStateException(forbidden + " outcomes the Java memory model forbids");
        }
        System.out.println("litmus: every test passed, no forbidden outcome");
    }
}
