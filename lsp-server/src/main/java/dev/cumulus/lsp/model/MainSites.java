package dev.cumulus.lsp.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.ArrayType;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.Modifier;
import org.eclipse.jdt.core.dom.SingleVariableDeclaration;
import org.eclipse.jdt.core.dom.Type;

/**
 * Where "Run on cluster | Debug node…" lenses go: a {@code public static void main(String[])} (or {@code String...})
 * of a type declared in the source, when the source joins a cluster ({@code Cluster.join(...)} or
 * {@code LocalCluster.run(...)}), as rust-analyzer puts Run/Debug over {@code main}.
 */
public final class MainSites {
    private static final Set<String> JOINS = Set.of("Cluster.join", "dev.cumulus.Cluster.join");

    /**
     * One {@code main}.
     *
     * @param range     the method's name
     * @param mainClass the binary name of its class ({@code org.example.Outer$Inner})
     */
    public record Site(SourceRange range, String mainClass) {
    }

    private MainSites() {
    }

    /** The runnable mains of one source, in the order of their types. */
    public static List<Site> find(SourceIndex idx) {
        if (!joinsCluster(idx)) {
            return List.of();
        }
        List<Site> out = new ArrayList<>();
        for (String name : idx.typeNames()) {
            AbstractTypeDeclaration t = idx.type(name);
            for (Object d : t.bodyDeclarations()) {
                if (d instanceof MethodDeclaration m && isMain(m)) {
                    out.add(new Site(idx.range(m.getName()), name.replace('/', '.')));
                }
            }
        }
        return out;
    }

    private static boolean joinsCluster(SourceIndex idx) {
        boolean[] found = {false};
        idx.unit().accept(new ASTVisitor() {
            @Override
            public boolean visit(MethodInvocation node) {
                if (node.getExpression() != null
                        && JOINS.contains(node.getExpression() + "." + node.getName().getIdentifier())) {
                    found[0] = true;
                }
                return !found[0];
            }
        });
        return found[0];
    }

    private static boolean isMain(MethodDeclaration m) {
        int mods = m.getModifiers();
        if (!"main".equals(m.getName().getIdentifier()) || !Modifier.isStatic(mods) || !Modifier.isPublic(mods)
                || m.isConstructor() || m.getReturnType2() == null || !"void".equals(m.getReturnType2().toString())
                || m.parameters().size() != 1) {
            return false;
        }
        SingleVariableDeclaration p = (SingleVariableDeclaration) m.parameters().getFirst();
        if (p.isVarargs()) {
            return isString(p.getType());
        }
        return p.getType() instanceof ArrayType a && a.getDimensions() == 1 && isString(a.getElementType());
    }

    private static boolean isString(Type t) {
        return Set.of("String", "java.lang.String").contains(t.toString());
    }
}
