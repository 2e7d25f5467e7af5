package dev.cumulus.analysis;

import java.util.List;

/** CUM101: a class may not implement both {@code Cloud.Root} and {@code Cloud.Node}, directly or through supertypes. */
final class RootAndNodeChecker implements RuleChecker {
    private final ClassIndex index;

    RootAndNodeChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM101;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (index.isRoot(c.name) && index.isNode(c.name)) {
            out.add(onClass(c, "class '" + c.simpleName() + "' implements both Cloud.Root and Cloud.Node"));
        }
    }
}
