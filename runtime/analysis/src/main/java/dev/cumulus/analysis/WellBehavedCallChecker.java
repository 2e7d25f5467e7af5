package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * CUM107: cloud methods call only well-behaved code. Reported on a call, in a cloud class, of a JDK method that reads
 * the clock, uses randomness, performs I/O, depends on the environment, uses identity hashes or creates threads
 * ({@link Catalog#envCall}), or of a helper method of a user (non-JDK, non-cloud) class that reaches one, followed by
 * static binding to depth 12. At most one finding per line of a method: {@code new Random().nextInt()} is one mistake.
 */
final class WellBehavedCallChecker implements RuleChecker {
    private static final int MAX_HELPER_DEPTH = 12;

    /** How a helper reaches environment code: the call chain, what the code does, and the call's place. */
    record EnvPath(List<String> chain, String what, RelatedLocation site) {
    }

    private final ClassIndex index;
    private final Map<MethodInfo, Optional<EnvPath>> envPaths = new IdentityHashMap<>();

    WellBehavedCallChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM107;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isCloud(c.name)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            Set<Integer> reported = new HashSet<>();
            for (Event e : index.facts(m).events) {
                if (!(e instanceof InvokeEvent ie) || reported.contains(ie.line())) {
                    continue;
                }
                String what = Catalog.envCall(ie.owner(), ie.name());
                if (what != null) {
                    reported.add(ie.line());
                    out.add(onMethod(c, m, ie.line(), "method '" + m.name + "' calls " + callText(ie) + ", which "
                            + what, List.of()));
                    continue;
                }
                Optional<EnvPath> p = helperTarget(ie).flatMap(t -> envPath(t, 0));
                if (p.isPresent()) {
                    reported.add(ie.line());
                    out.add(onMethod(c, m, ie.line(), "method '" + m.name + "' calls " + callText(ie) + ", which "
                            + p.get().what() + " (" + String.join(" -> ", p.get().chain()) + ")",
                            List.of(p.get().site())));
                }
            }
        }
    }

    /** How a method of a non-cloud, non-JDK class reaches environment code, if it does. */
    private Optional<EnvPath> envPath(MethodInfo m, int depth) {
        Optional<EnvPath> have = envPaths.get(m);
        if (have != null) {
            return have;
        }
        envPaths.put(m, Optional.empty()); // cycle guard
        Optional<EnvPath> result = Optional.empty();
        if (m.code != null && depth < MAX_HELPER_DEPTH) {
            for (Event e : index.facts(m).events) {
                if (!(e instanceof InvokeEvent ie)) {
                    continue;
                }
                String what = Catalog.envCall(ie.owner(), ie.name());
                if (what != null) {
                    String call = callText(ie);
                    result = Optional.of(new EnvPath(List.of(m.label(), call + m.owner.at(ie.line())), what,
                            new RelatedLocation(m.owner.name, m.name, m.owner.sourceFile, ie.line(),
                                    call + " " + what)));
                    break;
                }
                Optional<EnvPath> sub = helperTarget(ie).flatMap(t -> envPath(t, depth + 1));
                if (sub.isPresent()) {
                    List<String> chain = new ArrayList<>();
                    chain.add(m.label());
                    chain.addAll(sub.get().chain());
                    result = Optional.of(new EnvPath(List.copyOf(chain), sub.get().what(), sub.get().site()));
                    break;
                }
            }
        }
        envPaths.put(m, result);
        return result;
    }

    /** The user (non-JDK, non-cloud) method a call binds to, for following helpers. */
    private Optional<MethodInfo> helperTarget(InvokeEvent ie) {
        if (ie.name().equals("<clinit>")) {
            return Optional.empty();
        }
        return index.resolveConcrete(ie.owner(), ie.name(), ie.desc())
                .filter(t -> !t.owner.fromJdk && !index.isCloud(t.owner.name));
    }

    private static String callText(InvokeEvent ie) {
        return ie.name().equals("<init>") ? "new " + ClassInfo.display(ie.owner()) + "()"
                : ClassInfo.display(ie.owner()) + "." + ie.name() + "()";
    }
}
