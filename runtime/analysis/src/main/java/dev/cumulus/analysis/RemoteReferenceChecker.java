package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.lang.classfile.MethodSignature;
import java.lang.classfile.Signature;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * CUM103: fields, parameters and results of cloud classes may not refer to remote objects. A remote object type is a
 * {@code java.rmi.Remote} subtype or an interface the analysed code passes as the interface class literal to
 * {@code Cluster.export}, {@code lookup} or {@code remoteNew} (collected once over the whole source). One finding per
 * field, and per method for the first parameter or result that mentions one.
 */
final class RemoteReferenceChecker implements RuleChecker {
    private final ClassIndex index;
    private Set<String> remoteIfaces;

    RemoteReferenceChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM103;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isCloud(c.name)) {
            return;
        }
        for (FieldInfo f : c.fields) {
            if (f.isSynthetic()) {
                continue;
            }
            String remote = firstRemote(Signature.parseFrom(f.genericType()));
            if (remote != null) {
                out.add(onField(c, f, index.fieldLine(c, f.name()), "field '" + f.name()
                        + "' refers to remote object type '" + ClassInfo.display(remote) + "'"));
            }
        }
        for (MethodInfo m : c.methods) {
            if (m.isSynthetic || m.name.equals("<clinit>")) {
                continue;
            }
            MethodSignature ms = MethodSignature.parseFrom(m.genericType());
            List<Signature> types = new ArrayList<>(ms.arguments());
            types.add(ms.result());
            for (Signature s : types) {
                String remote = firstRemote(s);
                if (remote != null) {
                    out.add(onMethod(c, m, m.reportLine(), "method '" + m.name + "' "
                            + (s == ms.result() ? "returns" : "takes a parameter of") + " remote object type '"
                            + ClassInfo.display(remote) + "'", List.of()));
                    break;
                }
            }
        }
    }

    private String firstRemote(Signature s) {
        return Signatures.classNames(s).stream().filter(this::isRemoteType).findFirst().orElse(null);
    }

    private boolean isRemoteType(String n) {
        return !index.isCloud(n) && (index.isSubtype(n, Catalog.REMOTE) || remoteIfaces().contains(n));
    }

    /** Interfaces the analysed code passes as the {@code iface} class literal to Cluster.export/lookup/remoteNew. */
    private Set<String> remoteIfaces() {
        if (remoteIfaces == null) {
            remoteIfaces = new HashSet<>();
            for (String n : index.allNames()) {
                Optional<ClassInfo> c = index.info(n);
                if (c.isEmpty() || !c.get().mentionsCumulus) {
                    continue;
                }
                for (MethodInfo m : c.get().methods) {
                    for (Event e : index.facts(m).events) {
                        if (e instanceof InvokeEvent ie && index.isClusterCall(ie) && ie.args().size() >= 2) {
                            String lit = ie.args().get(1).classLiteral();
                            if (lit != null) {
                                remoteIfaces.add(lit);
                            }
                        }
                    }
                }
            }
        }
        return remoteIfaces;
    }
}
