package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import java.lang.classfile.Signature;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CUM105: no references between clouds. A root's instance field may not mention a root type; a node's may mention only
 * the roots of its own cloud. "Own cloud" is class-level: a node class reachable from a root's instance field types
 * (type arguments and node subclasses included) belongs to that root's cloud; computed once over the whole source.
 */
final class CloudReferenceChecker implements RuleChecker {
    private final ClassIndex index;
    private Map<String, Set<String>> nodeRoots;

    CloudReferenceChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM105;
    }

    @Override
    public Set<Rule> yieldsTo() {
        return Set.of(Rules.CUM103);
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isCloud(c.name)) {
            return;
        }
        boolean root = index.isRoot(c.name);
        for (FieldInfo f : c.fields) {
            if (f.isSynthetic() || f.isStatic()) {
                continue;
            }
            for (String ref : Signatures.classNames(Signature.parseFrom(f.genericType()))) {
                if (index.isRoot(ref) && (root || !nodeRoots().getOrDefault(c.name, Set.of()).contains(ref))) {
                    out.add(onField(c, f, index.fieldLine(c, f.name()), root
                            ? "root '" + c.simpleName() + "' refers to the root of another cloud, '"
                            + ClassInfo.display(ref) + "', through field '" + f.name() + "'"
                            : "node '" + c.simpleName() + "' refers through field '" + f.name() + "' to root '"
                            + ClassInfo.display(ref) + "', which is not the root of its own cloud"));
                    break;
                }
            }
        }
    }

    /** For each node class, the roots whose cloud it belongs to (reachable through instance field types). */
    private Map<String, Set<String>> nodeRoots() {
        if (nodeRoots == null) {
            nodeRoots = new HashMap<>();
            List<String> nodes = index.allNames().stream().filter(index::isNode).toList();
            for (String r : index.allNames()) {
                if (!index.isRoot(r) || index.isNode(r)) {
                    continue;
                }
                Deque<String> work = new ArrayDeque<>(List.of(r));
                Set<String> seen = new HashSet<>(work);
                while (!work.isEmpty()) {
                    String x = work.pop();
                    for (String t : index.supertypes(x)) {
                        for (FieldInfo f : index.info(t).map(c -> c.fields).orElse(List.of())) {
                            if (f.isStatic()) {
                                continue;
                            }
                            for (String ref : Signatures.classNames(Signature.parseFrom(f.genericType()))) {
                                if (!index.isNode(ref)) {
                                    continue;
                                }
                                for (String sub : nodes) {
                                    if (index.isSubtype(sub, ref) && seen.add(sub)) {
                                        work.add(sub);
                                    }
                                }
                                if (seen.add(ref)) {
                                    work.add(ref);
                                }
                            }
                        }
                    }
                }
                seen.remove(r);
                for (String n : seen) {
                    nodeRoots.computeIfAbsent(n, k -> new HashSet<>()).add(r);
                }
            }
        }
        return nodeRoots;
    }
}
