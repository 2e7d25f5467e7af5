package dev.cumulus.lsp.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.StringLiteral;
import org.eclipse.jdt.core.dom.Type;
import org.eclipse.jdt.core.dom.TypeDeclaration;

/**
 * Where profile lenses go in a source: cloud classes (by the analysis, or by a direct {@code Cloud.Root}/
 * {@code Cloud.Node} in their {@code implements} list) and calls that create or name a distributed object with a
 * string literal ({@code cluster.replicated("best", ...)}, {@code cluster.sharedDoubleArray("A", ...)},
 * {@code sharedLong}, {@code barrier}, {@code remoteNew}, {@code export}, {@code lookup}).
 */
public final class LensSites {
    private static final Pattern FACTORY = Pattern.compile("replicated|shared\\w*|barrier|remoteNew|export|lookup");
    private static final Set<String> CLOUD_TYPES = Set.of("Cloud.Root", "Cloud.Node", "dev.cumulus.Cloud.Root",
            "dev.cumulus.Cloud.Node");

    /**
     * One lens site.
     *
     * @param range    where the lens goes (the class name, or the call)
     * @param cloudClass the class's internal name for a class site, else {@code null}
     * @param object   the object's name for a call site, else {@code null}
     * @param factory  the call's method name for a call site
     */
    public record Site(SourceRange range, String cloudClass, String object, String factory) {
    }

    private LensSites() {
    }

    /** The sites of one source; {@code cloudClasses} are internal names the analysis found to be cloud classes. */
    public static List<Site> find(SourceIndex idx, Set<String> cloudClasses) {
        List<Site> out = new ArrayList<>();
        for (String name : idx.typeNames()) {
            AbstractTypeDeclaration t = idx.type(name);
            if (cloudClasses.contains(name) || implementsCloud(t)) {
                out.add(new Site(idx.range(t.getName()), name, null, null));
            }
        }
        idx.unit().accept(new ASTVisitor() {
            @Override
            public boolean visit(MethodInvocation node) {
                if (FACTORY.matcher(node.getName().getIdentifier()).matches()) {
                    for (Object a : node.arguments()) {
                        if (a instanceof StringLiteral s) {
                            out.add(new Site(idx.range(node), null, s.getLiteralValue(),
                                    node.getName().getIdentifier()));
                            break;
                        }
                    }
                }
                return true;
            }
        });
        return out;
    }

    private static boolean implementsCloud(AbstractTypeDeclaration t) {
        if (t instanceof TypeDeclaration td) {
            for (Object o : td.superInterfaceTypes()) {
                if (CLOUD_TYPES.contains(((Type) o).toString())) {
                    return true;
                }
            }
        }
        return false;
    }
}
