package dev.cumulus.agent;

import java.lang.classfile.CodeBuilder;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;

/** Boxing and unboxing of a value on the operand stack, for hooks that take or give any field's value as an Object. */
final class Boxing {
    private Boxing() {
    }

    /** A primitive of {@code type} on the stack becomes its box ({@code valueOf}); a reference stays as it is. */
    static void box(CodeBuilder b, ClassDesc type) {
        if (type.isPrimitive()) {
            ClassDesc box = boxOf(type);
            b.invokestatic(box, "valueOf", MethodTypeDesc.of(box, type));
        }
    }

    /** The {@code Object} on the stack becomes a {@code type}: unboxed for a primitive, else cast. */
    static void unbox(CodeBuilder b, ClassDesc type) {
        if (type.isPrimitive()) {
            ClassDesc box = boxOf(type);
            b.checkcast(box);
            b.invokevirtual(box, type.displayName() + "Value", MethodTypeDesc.of(type));
        } else {
            b.checkcast(type);
        }
    }

    private static ClassDesc boxOf(ClassDesc primitive) {
        return switch (primitive.descriptorString()) {
            case "I" -> ClassDesc.of("java.lang.Integer");
            case "J" -> ClassDesc.of("java.lang.Long");
            case "D" -> ClassDesc.of("java.lang.Double");
            case "F" -> ClassDesc.of("java.lang.Float");
            case "Z" -> ClassDesc.of("java.lang.Boolean");
            case "C" -> ClassDesc.of("java.lang.Character");
            case "S" -> ClassDesc.of("java.lang.Short");
            case "B" -> ClassDesc.of("java.lang.Byte");
            default -> throw new IllegalArgumentException(primitive.descriptorString());
        };
    }
}
