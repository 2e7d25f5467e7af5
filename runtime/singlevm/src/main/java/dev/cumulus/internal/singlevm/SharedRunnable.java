package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A program's lambda or method reference used as a {@link Runnable} (the usual {@code new Thread(() -> ...)}), as a
 * shared object: the woven code makes one of these instead of the JDK's lambda object, so a thread may run it on any
 * node. It names the implementation method and holds the captured values in a shared array; its run looks the method
 * up in the program's class and calls it with them. Built like a woven program class (state, id and statics fields);
 * not user API.
 */
public final class SharedRunnable implements Runnable, SharedObject {
    public static int $cumulus$statics;
    public transient int $cumulus$state;
    public transient long $cumulus$id;
    private String owner;
    private String name;
    private String descriptor;
    private int kind;
    private Object[] captures;

    /** Made by woven code where the program makes a {@code Runnable} lambda; {@code kind} is a method handle kind. */
    public SharedRunnable(Object[] captures, String owner, String name, String descriptor, int kind) {
        this.captures = captures;
        this.owner = owner;
        this.name = name;
        this.descriptor = descriptor;
        this.kind = kind;
    }

    @Override
    public void run() {
        ObjectSpace space = ObjectSpace.current();
        if (!Epochs.validHere($cumulus$state)) {
            space.fetch(this, "captures");
        }
        Copy c = space.arrayCopy(captures);
        if (c != null && !Epochs.validHere(c.arrayState)) {
            space.fillRange(c, 0, java.lang.reflect.Array.getLength(captures));
        }
        try {
            target(space, owner, name, descriptor, kind).invokeWithArguments(captures);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new CumulusException("the lambda " + owner + "." + name + " threw " + t, t);
        }
    }

    /** The implementation method of a shared lambda ({@code kind} a method handle kind), looked up in its class. */
    static MethodHandle target(ObjectSpace space, String owner, String name, String descriptor, int kind)
            throws ReflectiveOperationException {
        Class<?> type = space.loadClass(owner.replace('/', '.'));
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        MethodType mt = MethodType.fromMethodDescriptorString(descriptor, type.getClassLoader());
        return switch (kind) {
            case MethodHandleInfo.REF_invokeStatic -> lookup.findStatic(type, name, mt);
            case MethodHandleInfo.REF_invokeSpecial -> lookup.findSpecial(type, name, mt, type);
            case MethodHandleInfo.REF_newInvokeSpecial -> lookup.findConstructor(type, mt);
            default -> lookup.findVirtual(type, name, mt);
        };
    }

    @Override
    public String toString() {
        return "lambda " + owner.replace('/', '.') + "." + name;
    }
}
