package dev.cumulus.internal.migration;

import dev.cumulus.MigrationException;
import dev.cumulus.NotTransferableException;
import dev.cumulus.internal.codec.TransferAllowList;
import dev.cumulus.internal.codec.ValueCodec;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import sun.reflect.ReflectionFactory;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * The state of a remote object as it migrates or is checkpointed: the values of its instance fields (its class's and
 * its superclasses', {@code transient} ones left out) encoded by value with {@link ValueCodec}, as arguments are.
 * A field whose value cannot be transferred refuses the capture, naming the class, the field and the type. On the
 * new node the object is made without running a constructor (as Java serialization does) and its fields are set from
 * the state; {@code transient} fields keep their default values ({@code MigrationAware.afterMigration} reopens what
 * they held).
 */
final class ObjectState {
    private static final ClassValue<ObjectState> OF = new ClassValue<>() {
        @Override
        protected ObjectState computeValue(Class<?> type) {
            return new ObjectState(type);
        }
    };

    private final Class<?> type;
    private final Field[] fields;

    private ObjectState(Class<?> type) {
        this.type = type;
        List<Field> found = new ArrayList<>();
        for (Class<?> k = type; k != null && k != Object.class; k = k.getSuperclass()) {
            for (Field field : k.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
                    field.setAccessible(true);
                    found.add(field);
                }
            }
        }
        this.fields = found.toArray(Field[]::new);
    }

    /** The state layout of objects of {@code type}. */
    static ObjectState of(Class<?> type) {
        return OF.get(type);
    }

    /** Allows the declared types of the fields on {@code allowList}: the node that receives the state decodes them. */
    void allowFieldTypes(TransferAllowList allowList) {
        for (Field field : fields) {
            allowList.allow(field.getGenericType());
        }
    }

    /**
     * The state of {@code object} as bytes.
     *
     * @throws MigrationException when a field's value cannot be transferred (naming class, field and type)
     */
    byte[] capture(ValueCodec codec, Object object) {
        Object[] values = new Object[fields.length];
        try {
            for (int i = 0; i < fields.length; i++) {
                values[i] = fields[i].get(object);
            }
        } catch (IllegalAccessException e) {
            throw new MigrationException("cannot read the state of " + type.getName() + ": " + e.getMessage(), e);
        }
        ExpandableArrayBuffer out = new ExpandableArrayBuffer(256);
        int end;
        try {
            end = codec.writeValues(out, 0, values, i -> "field " + fields[i].getDeclaringClass().getName() + "."
                + fields[i].getName() + " (" + fields[i].getType().getTypeName() + ")");
        } catch (NotTransferableException e) {
            throw new MigrationException(type.getName() + " cannot migrate: its state cannot be transferred: "
                + e.getMessage() + "; make the field transient (and reopen it in MigrationAware.afterMigration) or "
                + "use a transferable type", e);
        }
        byte[] bytes = new byte[end];
        out.getBytes(0, bytes);
        return bytes;
    }

    /** Sets the fields of {@code object} from {@code state} (made by {@link #capture} for this class). */
    void restore(ValueCodec codec, Object object, byte[] state) {
        Object[] values = fields.length == 1
            ? new Object[] {codec.readValue(new UnsafeBuffer(state), 0, state.length)}
            : codec.reader(new UnsafeBuffer(state), 0, state.length).readArguments(fields.length);
        try {
            for (int i = 0; i < fields.length; i++) {
                fields[i].set(object, values[i]);
            }
        } catch (IllegalAccessException | IllegalArgumentException e) {
            throw new MigrationException("cannot restore the state of " + type.getName() + ": " + e.getMessage()
                + "; do all nodes run the same classes?", e);
        }
    }

    /** A new object of this class with every field at its default value: no constructor of the class runs. */
    Object newInstance() {
        try {
            Constructor<?> bare = ReflectionFactory.getReflectionFactory()
                .newConstructorForSerialization(type, Object.class.getDeclaredConstructor());
            return bare.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new MigrationException("cannot make an instance of " + type.getName() + " to migrate into: " + e, e);
        }
    }
}
