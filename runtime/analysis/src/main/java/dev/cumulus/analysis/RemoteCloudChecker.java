package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.List;

/**
 * CUM102: a cloud class may not be a remote object. Reported on a cloud class that implements {@code java.rmi.Remote},
 * and on every {@code Cluster.export} of a value whose static type is a cloud class or {@code Cluster.remoteNew} of a
 * cloud class literal, in any class.
 */
final class RemoteCloudChecker implements RuleChecker {
    private final ClassIndex index;

    RemoteCloudChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM102;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (index.isCloud(c.name) && index.isSubtype(c.name, Catalog.REMOTE)) {
            out.add(onClass(c, "cloud class '" + c.simpleName() + "' implements java.rmi.Remote"));
        }
        if (!c.mentionsCumulus) {
            return;
        }
        for (MethodInfo m : c.methods) {
            for (Event e : index.facts(m).events) {
                if (e instanceof InvokeEvent ie && index.isClusterCall(ie) && !ie.name().equals("lookup")
                        && !ie.args().isEmpty()) {
                    MethodFacts.Value a0 = ie.args().get(0);
                    String published = ie.name().equals("export") ? a0.className() : a0.classLiteral();
                    if (published != null && index.isCloud(published)) {
                        ClassInfo pc = index.info(published).orElse(null);
                        out.add(onMethod(c, m, ie.line(), "cloud class '" + ClassInfo.display(published)
                                        + "' is published as a remote object by Cluster." + ie.name(),
                                pc == null ? List.of() : List.of(new RelatedLocation(pc.name, null, pc.sourceFile,
                                        pc.classLine(), "the cloud class"))));
                    }
                }
            }
        }
    }
}
