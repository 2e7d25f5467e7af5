package dev.cumulus.lsp.model;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.Annotation;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.Modifier;
import org.eclipse.jdt.core.dom.Name;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.SingleVariableDeclaration;

/**
 * Mechanical fixes for findings, as text edits on the analysed text. Offered only where the edit is safe to make
 * without bindings:
 * <ul>
 *   <li>CUM104 on a static field of the cloud class itself: remove {@code static} (the field becomes replicated
 *       state). Static uses elsewhere ({@code Type.field} from static code) become compile errors the user sees.</li>
 *   <li>CUM107 on {@code System.currentTimeMillis()} / {@code System.nanoTime()} called in the method itself (not a
 *       helper): add a {@code long nowMs}/{@code nowNs} parameter and replace every such call in the method by it. Not
 *       offered for constructors, {@code @Override} methods (the signature is fixed by the supertype), or when the
 *       call sits in a lambda's or anonymous class's own method. Callers are not changed: they now fail to compile
 *       until they pass the time in, which is the point (the time is read once, outside the cloud, and broadcast).</li>
 * </ul>
 */
public final class QuickFixes {
    /** A replacement of {@code [startOffset, endOffset)} by {@code newText}. */
    public record Edit(SourceRange range, String newText) {
    }

    /** A titled set of edits to one document. */
    public record Fix(String title, String ruleId, List<Edit> edits) {
    }

    private QuickFixes() {
    }

    /** The fix for a problem, if there is a mechanical one. */
    public static Optional<Fix> fixFor(SourceIndex idx, Problem p) {
        try {
            return switch (p.ruleId()) {
                case "CUM104" -> p.onField() ? removeStatic(idx, p) : Optional.empty();
                case "CUM107" -> timeParameter(idx, p);
                default -> Optional.empty();
            };
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Fix> removeStatic(SourceIndex idx, Problem p) {
        AbstractTypeDeclaration type = idx.type(p.className());
        SimpleName name = type == null ? null : idx.fieldName(type, p.memberName());
        if (name == null || !(name.getParent().getParent() instanceof FieldDeclaration fd)) {
            return Optional.empty();
        }
        for (Object o : fd.modifiers()) {
            if (o instanceof Modifier m && m.isStatic()) {
                int start = m.getStartPosition();
                int end = start + m.getLength();
                String text = idx.lines().text();
                while (end < text.length() && text.charAt(end) == ' ') {
                    end++;
                }
                return Optional.of(new Fix("Make '" + p.memberName() + "' an instance field (remove static)", "CUM104",
                        List.of(new Edit(idx.lines().range(start, end), ""))));
            }
        }
        return Optional.empty();
    }

    private static Optional<Fix> timeParameter(SourceIndex idx, Problem p) {
        String call;
        String param;
        if (p.message().contains("System.currentTimeMillis()")) {
            call = "currentTimeMillis";
            param = "nowMs";
        } else if (p.message().contains("System.nanoTime()")) {
            call = "nanoTime";
            param = "nowNs";
        } else {
            return Optional.empty();
        }
        if (p.message().contains(" -> ") || p.memberName() == null || p.memberName().startsWith("<")) {
            return Optional.empty(); // through a helper, or in a constructor/initializer
        }
        AbstractTypeDeclaration type = idx.type(p.className());
        MethodDeclaration m = type == null ? null : idx.method(type, p.memberName(), p.memberDescriptor());
        if (m == null || m.getBody() == null || m.isConstructor()) {
            return Optional.empty();
        }
        for (Object o : m.modifiers()) {
            if (o instanceof Annotation a && a.getTypeName().getFullyQualifiedName().endsWith("Override")) {
                return Optional.empty();
            }
        }
        List<MethodInvocation> calls = new ArrayList<>();
        Set<String> names = new HashSet<>();
        boolean[] nested = new boolean[1];
        m.getBody().accept(new ASTVisitor() {
            @Override
            public boolean visit(MethodInvocation node) {
                if (node.getName().getIdentifier().equals(call) && node.arguments().isEmpty()
                        && node.getExpression() instanceof Name n
                        && (n.getFullyQualifiedName().equals("System")
                        || n.getFullyQualifiedName().equals("java.lang.System"))) {
                    if (enclosingMethod(node) != m) {
                        nested[0] = true;
                    }
                    calls.add(node);
                }
                return true;
            }

            @Override
            public boolean visit(SimpleName node) {
                names.add(node.getIdentifier());
                return true;
            }
        });
        if (calls.isEmpty() || nested[0]) {
            return Optional.empty();
        }
        for (Object o : m.parameters()) {
            names.add(((SingleVariableDeclaration) o).getName().getIdentifier());
        }
        String name = param;
        for (int i = 2; names.contains(name); i++) {
            name = param + i;
        }
        List<Edit> edits = new ArrayList<>();
        String text = idx.lines().text();
        List<?> params = m.parameters();
        if (params.isEmpty()) {
            int open = text.indexOf('(', m.getName().getStartPosition() + m.getName().getLength());
            edits.add(new Edit(idx.lines().range(open + 1, open + 1), "long " + name));
        } else {
            SingleVariableDeclaration last = (SingleVariableDeclaration) params.getLast();
            if (last.isVarargs()) {
                int at = last.getStartPosition();
                edits.add(new Edit(idx.lines().range(at, at), "long " + name + ", "));
            } else {
                int at = last.getStartPosition() + last.getLength();
                edits.add(new Edit(idx.lines().range(at, at), ", long " + name));
            }
        }
        for (MethodInvocation c : calls) {
            edits.add(new Edit(idx.range(c), name));
        }
        return Optional.of(new Fix("Pass the time in: add parameter 'long " + name + "' and use it instead of System."
                + call + "() (callers then supply it)", "CUM107", edits));
    }

    private static ASTNode enclosingMethod(ASTNode node) {
        ASTNode n = node.getParent();
        while (n != null && !(n instanceof MethodDeclaration) && !(n instanceof LambdaExpression)) {
            n = n.getParent();
        }
        return n;
    }
}
