package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandleInfo;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A program's lambda or method reference as a shared object: the woven code makes one of these instead of the JDK's
 * lambda object, so a thread or a pool's worker may run it on any node. It names the implementation method and holds
 * the captured values in a shared array; {@link #invoke()} looks the method up in the program's class and calls it
 * with them. Built like a woven program class (state, id and statics fields); not user API.
 */
public abstract class SharedLambda implements SharedObject {
    public static int $cumulus$statics;
    public transient int $cumulus$state;
    public transient long $cumulus$id;
    private String owner;
    private String name;
    private String descriptor;
    private int kind;
    private Object[] captures;

    /** {@code kind} is a method handle kind ({@link MethodHandleInfo}). */
    SharedLambda(Object[] captures, String owner, String name, String descriptor, int kind) {
        this.captures = captures;
        this.owner = owner;
        this.name = name;
        this.descriptor = descriptor;
        this.kind = kind;
    }

    /**
     * Calls the implementation method with the captured values, the copy filled first on a node that is not home (where
     * a captured mutable JDK object of another node stops the run, as a woven read of it would).
     */
    final Object invoke() throws Throwable {
        ObjectSpace space = ObjectSpace.current();
        if (!Epochs.validHere($cumulus$state)) {
            space.fetch(this, "captures");
        }
        Copy c = space.arrayCopy(captures);
        if (c != null) {
            if (!Epochs.validHere(c.arrayState)) {
                space.fillRange(c, 0, captures.length);
            }
            space.checkForeign(c, 0, captures.length); // a captured JDK object this node cannot use stops the run
        }
        return target(space).invokeWithArguments(captures);
    }

    /** What a failure of the lambda says. */
    final String describe(Throwable t) {
        return "the lambda " + owner + "." + name + " threw " + t;
    }

    private MethodHandle target(ObjectSpace space) throws ReflectiveOperationException {
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
