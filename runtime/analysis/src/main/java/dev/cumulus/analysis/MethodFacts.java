package dev.cumulus.analysis;

import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.Label;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.MethodHandleEntry;
import java.lang.classfile.instruction.*;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The facts the rules need from one method body: field accesses, calls (with what the analysis knows about the
 * receiver and arguments), array stores, monitor entries, each with its line. Computed by a linear abstract
 * interpretation of the operand stack that tracks, per value, its static type, a class literal, and whether it was
 * read out of a cloud field (its "origin"); at branch targets the stacks of the incoming edges are merged, local
 * variables are tracked flow-insensitively for origins (two passes), so loops do not lose provenance.
 */
final class MethodFacts {

    /**
     * An abstract stack value. {@code type} is a field descriptor or null; {@code origin} names a cloud field;
     * {@code lambda} is the {@link LambdaEvent} that made the value (a lambda or method reference), or null.
     */
    record Value(String type, String classLiteral, String origin, boolean wide, LambdaEvent lambda) {
        static final Value UNKNOWN = new Value(null, null, null, false, null);

        static Value of(String desc) {
            return new Value(desc, null, null, desc != null && (desc.equals("J") || desc.equals("D")), null);
        }

        static Value ofKind(TypeKind k) {
            return new Value(k == TypeKind.REFERENCE ? null : String.valueOf(k.upperBound().descriptorString()),
                    null, null, k.slotSize() == 2, null);
        }

        Value withOrigin(String o) {
            return new Value(type, classLiteral, o, wide, lambda);
        }

        Value withType(String t) {
            return new Value(t, classLiteral, origin, wide, lambda);
        }

        /** Internal name of the static type when it is a class type, else null. */
        String className() {
            return type != null && type.startsWith("L") ? type.substring(1, type.length() - 1) : null;
        }

        static Value merge(Value a, Value b) {
            if (a.equals(b)) {
                return a;
            }
            return new Value(a.type != null && a.type.equals(b.type) ? a.type : null,
                    a.classLiteral != null && a.classLiteral.equals(b.classLiteral) ? a.classLiteral : null,
                    a.origin != null ? a.origin : b.origin, a.wide, a.lambda == b.lambda ? a.lambda : null);
        }
    }

    sealed interface Event permits FieldEvent, InvokeEvent, ArrayStoreEvent, LambdaEvent, MonitorEvent {
        int line();
    }

    /** A field access; {@code value} is the value stored by a PUTFIELD or PUTSTATIC, else null. */
    record FieldEvent(Opcode opcode, String owner, String name, String desc, int line, Value receiver, Value value)
            implements Event {
    }

    /**
     * A lambda or method reference made here: the functional interface it implements (internal name), the method
     * that implements it, and the values it captures.
     */
    record LambdaEvent(int line, String functionalInterface, String implOwner, String implName, String implDesc,
                       List<Value> captured) implements Event {
    }

    /** A call; {@code viaLambda} marks a lambda or method reference whose body the call stands for. */
    record InvokeEvent(Opcode opcode, String owner, String name, String desc, int line, Value receiver,
                       List<Value> args, boolean viaLambda) implements Event {
    }

    record ArrayStoreEvent(Opcode opcode, int line, Value array) implements Event {
    }

    /** A {@code monitorenter} (a {@code synchronized} block) on {@code lock}. */
    record MonitorEvent(int line, Value lock) implements Event {
    }

    static final MethodFacts EMPTY = new MethodFacts(List.of());

    final List<Event> events;

    private MethodFacts(List<Event> events) {
        this.events = List.copyOf(events);
    }

    /**
     * @param ownerName      internal name of the declaring class
     * @param isStatic       whether the method is static
     * @param desc           method descriptor
     * @param code           the body
     * @param isCloudField   tells whether a field (owner, name) belongs to a cloud class: values read from it get an
     *                       origin
     * @param isCollection   tells whether a class is a known collection (calls on it with a cloud origin keep the
     *                       origin: views, iterators, elements)
     */
    static MethodFacts compute(String ownerName, boolean isStatic, String desc, CodeModel code,
                               Predicate<String[]> isCloudField, Predicate<String> isCollection) {
        Map<Integer, String> slotOrigins = new HashMap<>();
        List<Event> events = List.of();
        for (int pass = 0; pass < 2; pass++) {
            int before = slotOrigins.size();
            events = run(ownerName, isStatic, desc, code, isCloudField, isCollection, slotOrigins);
            if (pass == 0 && slotOrigins.size() == before) {
                break;
            }
        }
        return new MethodFacts(events);
    }

    private static List<Event> run(String ownerName, boolean isStatic, String desc, CodeModel code,
                                   Predicate<String[]> isCloudField, Predicate<String> isCollection,
                                   Map<Integer, String> slotOrigins) {
        List<Event> events = new ArrayList<>();
        Map<Integer, Value> locals = new HashMap<>();
        int slot = 0;
        if (!isStatic) {
            locals.put(slot++, Value.of("L" + ownerName + ";"));
        }
        for (ClassDesc p : MethodTypeDesc.ofDescriptor(desc).parameterList()) {
            Value v = Value.of(p.descriptorString());
            locals.put(slot, v);
            slot += v.wide ? 2 : 1;
        }
        Map<Label, List<Value>> pending = new HashMap<>();
        for (var h : code.exceptionHandlers()) {
            pending.put(h.handler(), new ArrayList<>(List.of(Value.of(
                    h.catchType().map(c -> "L" + c.asInternalName() + ";").orElse("Ljava/lang/Throwable;")))));
        }
        List<Value> stack = new ArrayList<>();
        boolean reachable = true;
        int line = -1;
        for (CodeElement e : code) {
            if (e instanceof LineNumber ln) {
                line = ln.line();
                continue;
            }
            if (e instanceof LabelTarget lt) {
                List<Value> in = pending.remove(lt.label());
                if (in != null) {
                    if (reachable && in.size() == stack.size()) {
                        for (int i = 0; i < stack.size(); i++) {
                            stack.set(i, Value.merge(stack.get(i), in.get(i)));
                        }
                    } else if (!reachable) {
                        stack = new ArrayList<>(in);
                    }
                } else if (!reachable) {
                    stack = new ArrayList<>();
                }
                reachable = true;
                continue;
            }
            if (!(e instanceof Instruction insn)) {
                continue;
            }
            switch (insn) {
                case LoadInstruction li -> {
                    Value v = locals.getOrDefault(li.slot(), Value.ofKind(li.typeKind()));
                    String o = slotOrigins.get(li.slot());
                    if (v.origin == null && o != null && li.typeKind() == TypeKind.REFERENCE) {
                        v = v.withOrigin(o);
                    }
                    stack.add(v);
                }
                case StoreInstruction si -> {
                    Value v = pop(stack);
                    locals.put(si.slot(), v);
                    if (v.origin != null) {
                        slotOrigins.putIfAbsent(si.slot(), v.origin);
                    }
                }
                case IncrementInstruction ignored -> {
                }
                case ConstantInstruction ci -> {
                    if (ci instanceof ConstantInstruction.LoadConstantInstruction lc
                            && lc.constantEntry() instanceof ClassEntry ce) {
                        stack.add(new Value("Ljava/lang/Class;", ce.asInternalName(), null, false, null));
                    } else if (ci.typeKind() == TypeKind.REFERENCE) {
                        stack.add(ci.opcode() == Opcode.ACONST_NULL ? Value.UNKNOWN
                                : Value.of(ci.constantValue() instanceof String ? "Ljava/lang/String;" : null));
                    } else {
                        stack.add(Value.ofKind(ci.typeKind()));
                    }
                }
                case FieldInstruction fi -> {
                    String owner = fi.owner().asInternalName();
                    String fname = fi.name().stringValue();
                    String fdesc = fi.type().stringValue();
                    switch (fi.opcode()) {
                        case GETFIELD -> {
                            Value recv = pop(stack);
                            events.add(new FieldEvent(fi.opcode(), owner, fname, fdesc, line, recv, null));
                            Value v = Value.of(fdesc);
                            if (isCloudField.test(new String[] {owner, fname})) {
                                v = v.withOrigin(ClassInfo.simple(owner) + "." + fname);
                            } else if (recv.origin != null) {
                                v = v.withOrigin(recv.origin);
                            }
                            stack.add(v);
                        }
                        case GETSTATIC -> {
                            events.add(new FieldEvent(fi.opcode(), owner, fname, fdesc, line, null, null));
                            Value v = Value.of(fdesc);
                            if (isCloudField.test(new String[] {owner, fname})) {
                                v = v.withOrigin(ClassInfo.simple(owner) + "." + fname);
                            }
                            stack.add(v);
                        }
                        case PUTFIELD -> {
                            Value stored = pop(stack);
                            Value recv = pop(stack);
                            events.add(new FieldEvent(fi.opcode(), owner, fname, fdesc, line, recv, stored));
                        }
                        default -> {
                            Value stored = pop(stack);
                            events.add(new FieldEvent(fi.opcode(), owner, fname, fdesc, line, null, stored));
                        }
                    }
                }
                case InvokeInstruction ii -> {
                    MethodTypeDesc mt = ii.typeSymbol();
                    List<Value> args = popN(stack, mt.parameterCount());
                    Value recv = ii.opcode() == Opcode.INVOKESTATIC ? null : pop(stack);
                    String owner = ii.owner().asInternalName();
                    events.add(new InvokeEvent(ii.opcode(), owner, ii.name().stringValue(),
                            ii.type().stringValue(), line, recv, args, false));
                    if (ii.opcode() == Opcode.INVOKESPECIAL && ii.name().equalsString("<init>") && recv != null
                            && !stack.isEmpty() && stack.getLast() == recv) {
                        // NEW; DUP; <init>: the remaining copy is the constructed object
                        stack.set(stack.size() - 1, recv);
                    }
                    String ret = mt.returnType().descriptorString();
                    if (!ret.equals("V")) {
                        Value v = Value.of(ret);
                        if (recv != null && recv.origin != null && isCollection.test(owner)) {
                            v = v.withOrigin(recv.origin);
                        }
                        stack.add(v);
                    }
                }
                case InvokeDynamicInstruction idi -> {
                    MethodTypeDesc mt = idi.typeSymbol();
                    List<Value> captured = popN(stack, mt.parameterCount());
                    LambdaEvent made = null;
                    for (var arg : idi.invokedynamic().bootstrap().arguments()) {
                        if (arg instanceof MethodHandleEntry mh) {
                            var ref = mh.reference();
                            Opcode op = switch (mh.kind()) {
                                case 5 -> Opcode.INVOKEVIRTUAL;
                                case 6 -> Opcode.INVOKESTATIC;
                                case 9 -> Opcode.INVOKEINTERFACE;
                                case 7, 8 -> Opcode.INVOKESPECIAL;
                                default -> null;
                            };
                            if (op != null) {
                                events.add(new InvokeEvent(op, ref.owner().asInternalName(), ref.name().stringValue(),
                                        ref.type().stringValue(), line, null, List.of(), true));
                                String ret = mt.returnType().descriptorString();
                                if (made == null && ret.startsWith("L")) {
                                    made = new LambdaEvent(line, ret.substring(1, ret.length() - 1),
                                            ref.owner().asInternalName(), ref.name().stringValue(),
                                            ref.type().stringValue(), captured);
                                    events.add(made);
                                }
                            }
                        }
                    }
                    String ret = mt.returnType().descriptorString();
                    if (!ret.equals("V")) {
                        Value v = Value.of(ret);
                        stack.add(made == null ? v : new Value(v.type(), null, null, false, made));
                    }
                }
                case ArrayLoadInstruction al -> {
                    pop(stack);
                    Value arr = pop(stack);
                    Value v = Value.ofKind(al.typeKind());
                    if (arr.type != null && arr.type.startsWith("[")) {
                        v = Value.of(arr.type.substring(1));
                    }
                    stack.add(arr.origin != null ? v.withOrigin(arr.origin) : v);
                }
                case ArrayStoreInstruction as -> {
                    pop(stack);
                    pop(stack);
                    Value arr = pop(stack);
                    events.add(new ArrayStoreEvent(as.opcode(), line, arr));
                }
                case NewObjectInstruction no -> stack.add(Value.of("L" + no.className().asInternalName() + ";"));
                case NewPrimitiveArrayInstruction np -> {
                    pop(stack);
                    stack.add(Value.of("[" + np.typeKind().upperBound().descriptorString()));
                }
                case NewReferenceArrayInstruction nr -> {
                    pop(stack);
                    stack.add(Value.of("[" + nr.componentType().asSymbol().descriptorString()));
                }
                case NewMultiArrayInstruction nm -> {
                    popN(stack, nm.dimensions());
                    stack.add(Value.of(nm.arrayType().asSymbol().descriptorString()));
                }
                case TypeCheckInstruction tc -> {
                    Value v = pop(stack);
                    if (tc.opcode() == Opcode.CHECKCAST) {
                        stack.add(v.withType(tc.type().asSymbol().descriptorString()));
                    } else {
                        stack.add(Value.of("I"));
                    }
                }
                case OperatorInstruction op -> {
                    switch (op.opcode()) {
                        case INEG, LNEG, FNEG, DNEG -> {
                            pop(stack);
                            stack.add(Value.ofKind(op.typeKind()));
                        }
                        case ARRAYLENGTH -> {
                            pop(stack);
                            stack.add(Value.of("I"));
                        }
                        case LCMP, FCMPL, FCMPG, DCMPL, DCMPG -> {
                            popN(stack, 2);
                            stack.add(Value.of("I"));
                        }
                        default -> {
                            popN(stack, 2);
                            stack.add(Value.ofKind(op.typeKind()));
                        }
                    }
                }
                case ConvertInstruction cv -> {
                    pop(stack);
                    stack.add(Value.ofKind(cv.toType()));
                }
                case StackInstruction st -> stackOp(st.opcode(), stack);
                case BranchInstruction br -> {
                    switch (br.opcode()) {
                        case GOTO, GOTO_W -> {
                        }
                        case IF_ICMPEQ, IF_ICMPNE, IF_ICMPLT, IF_ICMPGE, IF_ICMPGT, IF_ICMPLE, IF_ACMPEQ, IF_ACMPNE ->
                                popN(stack, 2);
                        default -> pop(stack);
                    }
                    mergeInto(pending, br.target(), stack);
                    if (br.opcode() == Opcode.GOTO || br.opcode() == Opcode.GOTO_W) {
                        reachable = false;
                    }
                }
                case LookupSwitchInstruction ls -> {
                    pop(stack);
                    mergeInto(pending, ls.defaultTarget(), stack);
                    for (var c : ls.cases()) {
                        mergeInto(pending, c.target(), stack);
                    }
                    reachable = false;
                }
                case TableSwitchInstruction ts -> {
                    pop(stack);
                    mergeInto(pending, ts.defaultTarget(), stack);
                    for (var c : ts.cases()) {
                        mergeInto(pending, c.target(), stack);
                    }
                    reachable = false;
                }
                case ReturnInstruction ignored -> {
                    stack.clear();
                    reachable = false;
                }
                case ThrowInstruction ignored -> {
                    stack.clear();
                    reachable = false;
                }
                case MonitorInstruction mi -> {
                    Value lock = pop(stack);
                    if (mi.opcode() == Opcode.MONITORENTER) {
                        events.add(new MonitorEvent(line, lock));
                    }
                }
                default -> {
                    // NOP and discontinued JSR/RET (not produced by modern compilers)
                }
            }
        }
        return events;
    }

    private static void mergeInto(Map<Label, List<Value>> pending, Label target, List<Value> stack) {
        List<Value> have = pending.get(target);
        if (have == null) {
            pending.put(target, new ArrayList<>(stack));
        } else if (have.size() == stack.size()) {
            for (int i = 0; i < have.size(); i++) {
                have.set(i, Value.merge(have.get(i), stack.get(i)));
            }
        }
    }

    private static Value pop(List<Value> stack) {
        return stack.isEmpty() ? Value.UNKNOWN : stack.removeLast();
    }

    private static List<Value> popN(List<Value> stack, int n) {
        Value[] out = new Value[n];
        for (int i = n - 1; i >= 0; i--) {
            out[i] = pop(stack);
        }
        return List.of(out);
    }

    private static void stackOp(Opcode op, List<Value> s) {
        switch (op) {
            case POP -> pop(s);
            case POP2 -> {
                if (pop(s).wide) {
                    return;
                }
                pop(s);
            }
            case DUP -> s.add(peek(s, 0));
            case DUP_X1 -> {
                Value a = pop(s), b = pop(s);
                s.add(a);
                s.add(b);
                s.add(a);
            }
            case DUP_X2 -> {
                Value a = pop(s), b = pop(s);
                if (b.wide) {
                    s.add(a);
                    s.add(b);
                    s.add(a);
                } else {
                    Value c = pop(s);
                    s.add(a);
                    s.add(c);
                    s.add(b);
                    s.add(a);
                }
            }
            case DUP2 -> {
                Value a = peek(s, 0);
                if (a.wide) {
                    s.add(a);
                } else {
                    Value b = peek(s, 1);
                    s.add(b);
                    s.add(a);
                }
            }
            case DUP2_X1 -> {
                Value a = pop(s);
                if (a.wide) {
                    Value b = pop(s);
                    s.add(a);
                    s.add(b);
                    s.add(a);
                } else {
                    Value b = pop(s), c = pop(s);
                    s.add(b);
                    s.add(a);
                    s.add(c);
                    s.add(b);
                    s.add(a);
                }
            }
            case DUP2_X2 -> {
                // rare in javac output; approximate by duplicating the top value(s) in place
                Value a = peek(s, 0);
                if (a.wide) {
                    s.add(s.size() - 2 < 0 ? 0 : s.size() - 2, a);
                } else {
                    Value b = peek(s, 1);
                    int at = Math.max(0, s.size() - 4);
                    s.add(at, a);
                    s.add(at, b);
                }
            }
            case SWAP -> {
                Value a = pop(s), b = pop(s);
                s.add(a);
                s.add(b);
            }
            default -> {
            }
        }
    }

    private static Value peek(List<Value> s, int fromTop) {
        int i = s.size() - 1 - fromTop;
        return i >= 0 ? s.get(i) : Value.UNKNOWN;
    }
}
