package dev.cumulus.lsp.model;

import dev.cumulus.profiler.channel.ProfileReport;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.SimpleName;

/**
 * Where a single-VM run's heap figures go in a source: on the declaration of each field the report names. The report
 * names a field under the class of the object that held it ({@code svit.Worker next}), which may inherit it: the
 * declaring class is found by walking the superclasses in the workspace's compiled classes, so a lens sits on the one
 * declaration and lists every class whose objects moved the field. Array elements ({@code []}) have no declaration and
 * get no lens.
 */
public final class HeapFieldSites {
    /**
     * One field declaration with figures.
     *
     * @param range   the field's name in its declaration
     * @param figures the report's figures of the field, one per class whose objects moved it (the declaring class or
     *                subclasses), in the report's order
     */
    public record Site(SourceRange range, List<ProfileReport.HeapField> figures) {
    }

    private HeapFieldSites() {
    }

    /**
     * The sites in {@code idx} for {@code fields}; {@code classes} are the workspace's class files by internal name
     * (to find where a field is declared).
     */
    public static List<Site> find(SourceIndex idx, Map<String, byte[]> classes,
                                  Collection<ProfileReport.HeapField> fields) {
        Map<String, Site> sites = new LinkedHashMap<>();
        Map<String, Optional<ClassModel>> parsed = new HashMap<>();
        for (ProfileReport.HeapField f : fields) {
            if (f.className().startsWith("[")) {
                continue;
            }
            String declaring = declaringClass(f.className().replace('.', '/'), f.field(), classes, parsed);
            AbstractTypeDeclaration type = idx.type(declaring);
            if (type == null || !idx.typeNames().contains(declaring)) {
                continue;
            }
            SimpleName name = idx.fieldName(type, f.field());
            if (name == null) {
                continue;
            }
            SourceRange range = idx.range(name);
            Site was = sites.get(declaring + " " + f.field());
            List<ProfileReport.HeapField> figures = new ArrayList<>(was == null ? List.of() : was.figures());
            figures.add(f);
            sites.put(declaring + " " + f.field(), new Site(range, List.copyOf(figures)));
        }
        return List.copyOf(sites.values());
    }

    /**
     * The class (internal name) that declares {@code field} for objects of {@code internalName}: itself or the nearest
     * superclass among {@code classes} that declares a field of that name; {@code internalName} itself when none of
     * them does (a class not compiled in the workspace).
     */
    static String declaringClass(String internalName, String field, Map<String, byte[]> classes,
                                 Map<String, Optional<ClassModel>> parsed) {
        String c = internalName;
        for (int depth = 0; c != null && depth < 64; depth++) {
            Optional<ClassModel> m = parsed.computeIfAbsent(c, k -> parse(classes.get(k)));
            if (m.isEmpty()) {
                break;
            }
            if (declared(m.get()).contains(field)) {
                return c;
            }
            c = m.get().superclass().map(s -> s.asInternalName()).orElse(null);
        }
        return internalName;
    }

    private static Set<String> declared(ClassModel m) {
        return m.fields().stream().map(FieldModel::fieldName).map(n -> n.stringValue()).collect(Collectors.toSet());
    }

    private static Optional<ClassModel> parse(byte[] bytes) {
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(ClassFile.of().parse(bytes));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
