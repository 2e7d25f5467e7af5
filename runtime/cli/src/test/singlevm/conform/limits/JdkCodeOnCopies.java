package conform.limits;

import java.util.Arrays;

/**
 * JDK code on arrays another node made or wrote ({@code Arrays.sort}, {@code Arrays.equals}, {@code String.join},
 * {@code new String(char[])} on a thread of another node): the JDK sees the node's copy as last filled and its writes
 * are not written back. One JVM prints {@code [1, 2, 3] true a|b hi}.
 */
public final class JdkCodeOnCopies {
    static final class Seen {
        boolean equal;
        String joined;
        String text;
    }

    public static void main(String[] args) throws Exception {
        int[] numbers = {3, 1, 2};
        String[] words = {"a", "b"};
        char[] chars = {'h', 'i'};
        Seen seen = new Seen();
        Thread t = new Thread(() -> {
            seen.equal = Arrays.equals(words, new String[] {"a", "b"});
            seen.joined = String.join("|", words);
            seen.text = new String(chars);
            Arrays.sort(numbers);
        }, "jdk-user");
        t.start();
        t.join();
        System.out.println(Arrays.toString(numbers) + " " + seen.equal + " " + seen.joined + " " + seen.text);
    }
}
