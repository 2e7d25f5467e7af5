package dev.cumulus.analysis;

import java.lang.classfile.Signature;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The class names a generic type signature mentions, for the rules that judge declared types. */
final class Signatures {
    private Signatures() {
    }

    /** What a rule says of one class name in a signature. */
    enum Verdict {
        OK,
        BAD,
        /** Acceptable if its type arguments are (a collection). */
        CHECK_ARGS
    }

    /** Internal name of a class type: {@code java/util/Map$Entry}. */
    static String name(Signature.ClassTypeSig ct) {
        return ct.outerType().map(o -> name(o) + "$" + ct.className()).orElse(ct.className());
    }

    /** Every class name in {@code s}: array components and type arguments included, type variables left out. */
    static List<String> classNames(Signature s) {
        List<String> out = new ArrayList<>();
        collect(s, out);
        return out;
    }

    private static void collect(Signature s, List<String> out) {
        switch (s) {
            case Signature.ArrayTypeSig a -> collect(a.componentSignature(), out);
            case Signature.ClassTypeSig ct -> {
                out.add(name(ct));
                for (Signature.TypeArg ta : ct.typeArgs()) {
                    if (ta instanceof Signature.TypeArg.Bounded b) {
                        collect(b.boundType(), out);
                    }
                }
            }
            default -> {
            }
        }
    }

    /** The first class name in {@code s} the verdict rejects, or null. Type variables and wildcards pass. */
    static String firstBad(Signature s, Function<String, Verdict> verdict) {
        switch (s) {
            case Signature.ArrayTypeSig a -> {
                return firstBad(a.componentSignature(), verdict);
            }
            case Signature.ClassTypeSig ct -> {
                String n = name(ct);
                Verdict v = verdict.apply(n);
                if (v == Verdict.BAD) {
                    return n;
                }
                if (v == Verdict.CHECK_ARGS) {
                    for (Signature.TypeArg ta : ct.typeArgs()) {
                        if (ta instanceof Signature.TypeArg.Bounded b) {
                            String bad = firstBad(b.boundType(), verdict);
                            if (bad != null) {
                                return bad;
                            }
                        }
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }
}
