package dev.cumulus.cli.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's compact lists of host names and of task counts, as its environment gives them to a job and a step
 * ({@code SLURM_JOB_NODELIST=node[01-03,07],gpu1}, {@code SLURM_TASKS_PER_NODE=2(x3),1}), expanded the way
 * {@code scontrol show hostnames} does, without asking it. Every error names the variable and its value.
 */
final class SlurmHostlist {
    private SlurmHostlist() {
    }

    /**
     * The host names of a Slurm host list, in order: comma-separated items, each literal text and bracketed groups
     * of numbers and ranges ({@code [1-3,7]}); a range keeps its first number's zero padding ({@code [08-10]} gives
     * 08, 09, 10). Several groups in one item expand like nested loops, the last one innermost.
     *
     * @param variable the environment variable it came from, for messages
     * @throws LaunchException when the list is empty or malformed
     */
    static List<String> expand(String variable, String list) {
        if (list == null || list.isBlank()) {
            throw bad(variable, list, "it is empty");
        }
        List<String> hosts = new ArrayList<>();
        for (String item : splitTopLevel(variable, list)) {
            if (item.isEmpty()) {
                throw bad(variable, list, "it has an empty item");
            }
            expandItem(variable, list, item, 0, "", hosts);
        }
        return hosts;
    }

    /** Splits at the commas outside brackets. */
    private static List<String> splitTopLevel(String variable, String list) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (c == '[') {
                depth++;
                if (depth > 1) {
                    throw bad(variable, list, "brackets are nested");
                }
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw bad(variable, list, "a ']' has no '['");
                }
            } else if (c == ',' && depth == 0) {
                items.add(list.substring(start, i).trim());
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw bad(variable, list, "a '[' is not closed");
        }
        items.add(list.substring(start).trim());
        return items;
    }

    private static void expandItem(String variable, String list, String item, int from, String prefix,
                                   List<String> out) {
        int open = item.indexOf('[', from);
        if (open < 0) {
            out.add(prefix + item.substring(from));
            return;
        }
        int close = item.indexOf(']', open);
        String head = prefix + item.substring(from, open);
        for (String range : item.substring(open + 1, close).split(",", -1)) {
            String[] ends = range.trim().split("-", -1);
            if (ends.length > 2 || !isNumber(ends[0]) || ends.length == 2 && !isNumber(ends[1])) {
                throw bad(variable, list, "'" + range + "' is neither a number nor a range N-M");
            }
            long first = Long.parseLong(ends[0]);
            long last = ends.length == 2 ? Long.parseLong(ends[1]) : first;
            if (last < first) {
                throw bad(variable, list, "the range " + range + " runs backwards");
            }
            int width = ends[0].length();
            for (long n = first; n <= last; n++) {
                String number = Long.toString(n);
                String padded = "0".repeat(Math.max(0, width - number.length())) + number;
                expandItem(variable, list, item, close + 1, head + padded, out);
            }
        }
    }

    private static boolean isNumber(String s) {
        return !s.isEmpty() && s.length() <= 18 && s.chars().allMatch(Character::isDigit);
    }

    /**
     * The task counts of a Slurm task list, one per host: comma-separated counts, each optionally repeated
     * ({@code 2(x3)} is three hosts with 2 tasks each).
     *
     * @param hosts how many hosts the list must cover
     * @throws LaunchException when it is malformed or covers another number of hosts
     */
    static int[] tasksPerNode(String variable, String list, int hosts) {
        if (list == null || list.isBlank()) {
            throw bad(variable, list, "it is empty");
        }
        List<Integer> counts = new ArrayList<>();
        for (String item : list.split(",")) {
            String s = item.trim();
            int repeat = 1;
            int paren = s.indexOf('(');
            if (paren >= 0) {
                String times = s.substring(paren).startsWith("(x") && s.endsWith(")")
                    ? s.substring(paren + 2, s.length() - 1) : "";
                if (!isNumber(times) || times.length() > 6) {
                    throw bad(variable, list, "'" + s + "' is neither N nor N(xR)");
                }
                repeat = Integer.parseInt(times);
                s = s.substring(0, paren);
            }
            if (!isNumber(s) || s.length() > 6 || Integer.parseInt(s) < 1) {
                throw bad(variable, list, "'" + item.trim() + "' is not a positive task count");
            }
            if (counts.size() + (long) repeat > hosts) {
                throw bad(variable, list, "it names more than the " + hosts + " hosts of the node list");
            }
            for (int r = 0; r < repeat; r++) {
                counts.add(Integer.parseInt(s));
            }
        }
        if (counts.size() != hosts) {
            throw bad(variable, list, "it covers " + counts.size() + " hosts, the node list has " + hosts);
        }
        return counts.stream().mapToInt(Integer::intValue).toArray();
    }

    private static LaunchException bad(String variable, String value, String why) {
        return new LaunchException("Slurm's " + variable + "=" + value + " cannot be read: " + why
            + "; is this the environment of a Slurm job (salloc, sbatch, srun)?");
    }
}
