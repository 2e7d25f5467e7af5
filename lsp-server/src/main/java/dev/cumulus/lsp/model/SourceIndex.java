package dev.cumulus.lsp.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.core.dom.AST;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTParser;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.ArrayType;
import org.eclipse.jdt.core.dom.Block;
import org.eclipse.jdt.core.dom.BodyDeclaration;
import org.eclipse.jdt.core.dom.ClassInstanceCreation;
import org.eclipse.jdt.core.dom.Comment;
import org.eclipse.jdt.core.dom.CompilationUnit;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.MethodInvocation;
import org.eclipse.jdt.core.dom.ParameterizedType;
import org.eclipse.jdt.core.dom.RecordDeclaration;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.SingleVariableDeclaration;
import org.eclipse.jdt.core.dom.Statement;
import org.eclipse.jdt.core.dom.SuperMethodInvocation;
import org.eclipse.jdt.core.dom.Type;
import org.eclipse.jdt.core.dom.TypeDeclarationStatement;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * The JDT DOM of one source text (parsed without bindings, a few milliseconds) and the lookups that place class-file
 * facts in it: a type by internal name, a member by name and descriptor, the node on a line. Immutable after
 * construction; shared by the analysis thread and request threads.
 */
public final class SourceIndex {
    private final CompilationUnit unit;
    private final LineMap lines;
    private final String packagePrefix;
    private final Map<String, AbstractTypeDeclaration> types = new HashMap<>();

    /** Parses {@code text} (Java 25 syntax, recovering from errors). */
    public SourceIndex(String text) {
        ASTParser parser = ASTParser.newParser(AST.getJLSLatest());
        Map<String, String> options = new HashMap<>();
        String release = Integer.toString(Runtime.version().feature());
        JavaCore.setComplianceOptions(JavaCore.isSupportedJavaVersion(release) ? release
                : JavaCore.latestSupportedJavaVersion(), options);
        options.put(JavaCore.COMPILER_DOC_COMMENT_SUPPORT, JavaCore.DISABLED);
        parser.setCompilerOptions(options);
        parser.setKind(ASTParser.K_COMPILATION_UNIT);
        parser.setResolveBindings(false);
        parser.setStatementsRecovery(true);
        parser.setSource(text.toCharArray());
        this.unit = (CompilationUnit) parser.createAST(null);
        this.lines = new LineMap(text);
        this.packagePrefix = unit.getPackage() == null ? ""
                : unit.getPackage().getName().getFullyQualifiedName().replace('.', '/') + "/";
        for (Object t : unit.types()) {
            indexType((AbstractTypeDeclaration) t, packagePrefix + ((AbstractTypeDeclaration) t).getName().getIdentifier());
        }
        // local classes: Outer$1Local (numbering is the compiler's; match by the name after the digits)
        unit.accept(new ASTVisitor() {
            @Override
            public boolean visit(TypeDeclarationStatement node) {
                types.putIfAbsent("local:" + node.getDeclaration().getName().getIdentifier(), node.getDeclaration());
                return true;
            }
        });
    }

    private void indexType(AbstractTypeDeclaration type, String binaryName) {
        types.put(binaryName, type);
        for (Object d : type.bodyDeclarations()) {
            if (d instanceof AbstractTypeDeclaration member) {
                indexType(member, binaryName + "$" + member.getName().getIdentifier());
            }
        }
    }

    public CompilationUnit unit() {
        return unit;
    }

    public LineMap lines() {
        return lines;
    }

    /** Internal name prefix of the unit's package ({@code corpus/cum104/}), empty for the default package. */
    public String packagePrefix() {
        return packagePrefix;
    }

    /** Internal names of the top-level and member types declared here. */
    public List<String> typeNames() {
        return types.keySet().stream().filter(n -> !n.startsWith("local:")).sorted().toList();
    }

    /** The type with this internal name, if declared here (local classes by their simple name). */
    public AbstractTypeDeclaration type(String internalName) {
        AbstractTypeDeclaration t = types.get(internalName);
        if (t == null) {
            String simple = internalName.substring(internalName.lastIndexOf('$') + 1).replaceFirst("^\\d+", "");
            if (!simple.isEmpty() && Character.isJavaIdentifierStart(simple.charAt(0))) {
                t = types.get("local:" + simple);
            }
        }
        return t;
    }

    /** The range of a node. */
    public SourceRange range(ASTNode node) {
        return lines.range(node.getStartPosition(), node.getStartPosition() + node.getLength());
    }

    /** The declared field's name node, or {@code null}. */
    public SimpleName fieldName(AbstractTypeDeclaration type, String name) {
        for (Object d : type.bodyDeclarations()) {
            if (d instanceof FieldDeclaration f) {
                for (Object o : f.fragments()) {
                    VariableDeclarationFragment v = (VariableDeclarationFragment) o;
                    if (v.getName().getIdentifier().equals(name)) {
                        return v.getName();
                    }
                }
            }
        }
        if (type instanceof RecordDeclaration r) {
            for (Object o : r.recordComponents()) {
                SingleVariableDeclaration v = (SingleVariableDeclaration) o;
                if (v.getName().getIdentifier().equals(name)) {
                    return v.getName();
                }
            }
        }
        return null;
    }

    /**
     * The method declaration matching a class-file name and descriptor ({@code <init>} finds constructors), or
     * {@code null}. Overloads are told apart by parameter count, then by erased simple type names (type variables
     * match anything).
     */
    public MethodDeclaration method(AbstractTypeDeclaration type, String name, String descriptor) {
        List<String> params = descriptor == null ? null : parameterNames(descriptor);
        MethodDeclaration best = null;
        int bestScore = -1;
        for (Object d : type.bodyDeclarations()) {
            if (!(d instanceof MethodDeclaration m)) {
                continue;
            }
            boolean nameOk = name.equals("<init>") ? m.isConstructor()
                    : !m.isConstructor() && m.getName().getIdentifier().equals(name);
            if (!nameOk) {
                continue;
            }
            int score = 0;
            if (params != null) {
                List<?> ps = m.parameters();
                if (name.equals("<init>") && ps.size() != params.size()) {
                    // enums and inner classes get synthetic leading parameters
                    params = params.subList(Math.max(0, params.size() - ps.size()), params.size());
                }
                if (ps.size() != params.size()) {
                    continue;
                }
                score = 1;
                for (int i = 0; i < ps.size(); i++) {
                    SingleVariableDeclaration p = (SingleVariableDeclaration) ps.get(i);
                    String simple = simpleErasure(p.getType()) + "[]".repeat(p.getExtraDimensions())
                            + (p.isVarargs() ? "[]" : "");
                    if (simple.equals(params.get(i))) {
                        score += 2;
                    }
                }
            }
            if (score > bestScore) {
                bestScore = score;
                best = m;
            }
        }
        return best;
    }

    private static String simpleErasure(Type t) {
        if (t instanceof ParameterizedType p) {
            return simpleErasure(p.getType());
        }
        if (t instanceof ArrayType a) {
            return simpleErasure(a.getElementType()) + "[]".repeat(a.getDimensions());
        }
        String s = t.toString();
        int lt = s.indexOf('<');
        if (lt >= 0) {
            s = s.substring(0, lt);
        }
        return s.substring(s.lastIndexOf('.') + 1).trim();
    }

    /** Simple erased names of a method descriptor's parameters: {@code (I[JLjava/util/List;)V} gives int, long[], List. */
    static List<String> parameterNames(String descriptor) {
        List<String> out = new ArrayList<>();
        int i = descriptor.indexOf('(') + 1;
        while (i > 0 && i < descriptor.length() && descriptor.charAt(i) != ')') {
            int dims = 0;
            while (descriptor.charAt(i) == '[') {
                dims++;
                i++;
            }
            String base;
            char c = descriptor.charAt(i);
            if (c == 'L') {
                int semi = descriptor.indexOf(';', i);
                String n = descriptor.substring(i + 1, semi);
                n = n.substring(n.lastIndexOf('/') + 1);
                base = n.substring(n.lastIndexOf('$') + 1);
                i = semi + 1;
            } else {
                base = switch (c) {
                    case 'I' -> "int";
                    case 'J' -> "long";
                    case 'Z' -> "boolean";
                    case 'B' -> "byte";
                    case 'C' -> "char";
                    case 'S' -> "short";
                    case 'F' -> "float";
                    case 'D' -> "double";
                    default -> "void";
                };
                i++;
            }
            out.add(base + "[]".repeat(dims));
        }
        return out;
    }

    /**
     * The node on a 1-based line inside {@code scope} that best explains a finding: the first call, creation or name
     * called {@code preferredName} starting on that line if given and present; else the outermost statement starting
     * on that line, cut at the end of the line (without a trailing comment). {@code null} if nothing starts there.
     */
    public SourceRange nodeOnLine(ASTNode scope, int line1, String preferredName) {
        int line0 = line1 - 1;
        ASTNode[] preferred = new ASTNode[1];
        ASTNode[] statement = new ASTNode[1];
        scope.accept(new ASTVisitor() {
            @Override
            public void preVisit(ASTNode node) {
                if (lines.line(node.getStartPosition()) != line0) {
                    return;
                }
                if (statement[0] == null && node instanceof Statement && !(node instanceof Block)) {
                    statement[0] = node;
                }
                if (preferred[0] == null && preferredName != null && named(node, preferredName)) {
                    preferred[0] = node;
                }
            }
        });
        if (preferred[0] != null) {
            return range(preferred[0]);
        }
        if (statement[0] != null) {
            int start = statement[0].getStartPosition();
            int end = Math.min(start + statement[0].getLength(), contentEnd(line0));
            return lines.range(start, Math.max(end, start + 1));
        }
        return null;
    }

    private static boolean named(ASTNode node, String name) {
        return switch (node) {
            case MethodInvocation mi -> mi.getName().getIdentifier().equals(name);
            case SuperMethodInvocation si -> si.getName().getIdentifier().equals(name);
            case ClassInstanceCreation ci -> {
                String t = simpleErasure(ci.getType());
                yield t.equals(name);
            }
            case SimpleName sn -> sn.getIdentifier().equals(name)
                    && !(sn.getParent() instanceof MethodInvocation mi && mi.getName() == sn);
            default -> false;
        };
    }

    /** End of a 0-based line's code: before a trailing line comment and trailing blanks. */
    public int contentEnd(int line0) {
        int end = lines.lineEnd(line0);
        for (Object o : unit.getCommentList()) {
            Comment c = (Comment) o;
            if (c.isLineComment() && lines.line(c.getStartPosition()) == line0) {
                end = Math.min(end, c.getStartPosition());
            }
        }
        String text = lines.text();
        while (end > lines.lineStart(line0) && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }

    /** The non-blank code of a 1-based line, without a trailing comment. */
    public SourceRange line(int line1) {
        int line0 = Math.max(0, Math.min(line1 - 1, lines.lineCount() - 1));
        SourceRange t = lines.trimmedLine(line0);
        int end = Math.max(t.startOffset(), Math.min(t.endOffset(), contentEnd(line0)));
        return lines.range(t.startOffset(), end > t.startOffset() ? end : t.endOffset());
    }

    /** The innermost body declaration (method, field, initializer) that contains the offset, or {@code null}. */
    public BodyDeclaration bodyAt(int offset) {
        BodyDeclaration[] found = new BodyDeclaration[1];
        unit.accept(new ASTVisitor() {
            @Override
            public void preVisit(ASTNode node) {
                if (node instanceof BodyDeclaration b && !(node instanceof AbstractTypeDeclaration)
                        && b.getStartPosition() <= offset && offset <= b.getStartPosition() + b.getLength()) {
                    found[0] = b;
                }
            }
        });
        return found[0];
    }
}
