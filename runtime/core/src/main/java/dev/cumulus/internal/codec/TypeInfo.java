package dev.cumulus.internal.codec;

import dev.cumulus.Transferable;
import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;
import org.agrona.UnsafeApi;

/**
 * What the codec knows about one class: how it is encoded (its {@link Kind} and wire tag), and for records and
 * {@code @Transferable} classes the fields to copy, the constructor to use and a fingerprint of the field layout.
 * Computed once per class ({@link #of(Class)}); immutable, so shared by every thread.
 */
final class TypeInfo {

    enum Kind {
        BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE, STRING, ENUM, RECORD, OBJECT, PRIMITIVE_ARRAY,
        OBJECT_ARRAY, COLLECTION, SORTED_SET, MAP, SORTED_MAP, FIXED_SIZE_LIST, IMMUTABLE_COLLECTION, IMMUTABLE_MAP,
        OPTIONAL, INSTANT, DURATION, LOCAL_DATE, BIG_INTEGER, BIG_DECIMAL, UUID, REFUSED
    }

    static final String DEFAULT_ADVICE =
        "pass primitives, strings, arrays, records, enums, collections of those, or annotate the class @Transferable";

    /** One copied field of a record or {@code @Transferable} class; primitives travel untagged. */
    record Slot(Field field, Class<?> type, char code, String label) {
        Slot(Field field, String label) {
            this(field, field.getType(), code(field.getType()), label);
        }

        /** The JVM descriptor letter of a primitive type, or 'L' for references. */
        static char code(Class<?> type) {
            if (!type.isPrimitive()) {
                return 'L';
            }
            return type.descriptorString().charAt(0);
        }
    }

    final Kind kind;
    final byte tag;
    final Class<?> type;
    /** Records and objects: the fields in wire order. */
    final Slot[] slots;
    /** Records: the canonical constructor; objects: the no-argument constructor. */
    final Constructor<?> constructor;
    /** Records and objects: hash of field names and types, checked by the receiver. 0 otherwise. */
    final int fingerprint;
    /** Primitive arrays: log2 of the element size and the array base offset. */
    final int shift;
    final long baseOffset;
    /** REFUSED: why, with advice. */
    final String refusal;
    /** Objects: the class keeps {@code Object.hashCode} (identity), so hashing one never looks at its fields. */
    final boolean identityHash;

    private TypeInfo(Kind kind, byte tag, Class<?> type, Slot[] slots, Constructor<?> constructor, int fingerprint,
                     int shift, long baseOffset, String refusal) {
        this.kind = kind;
        this.tag = tag;
        this.type = type;
        this.slots = slots;
        this.constructor = constructor;
        this.fingerprint = fingerprint;
        this.shift = shift;
        this.baseOffset = baseOffset;
        this.refusal = refusal;
        this.identityHash = kind == Kind.OBJECT && keepsIdentityHash(type);
    }

    private static boolean keepsIdentityHash(Class<?> type) {
        try {
            return type.getMethod("hashCode").getDeclaringClass() == Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static TypeInfo simple(Kind kind, byte tag, Class<?> type) {
        return new TypeInfo(kind, tag, type, null, null, 0, 0, 0, null);
    }

    private static TypeInfo refused(Class<?> type, String reason) {
        return new TypeInfo(Kind.REFUSED, (byte) -1, type, null, null, 0, 0, 0, reason);
    }

    private static final ClassValue<TypeInfo> CACHE = new ClassValue<>() {
        @Override
        protected TypeInfo computeValue(Class<?> type) {
            return compute(type);
        }
    };

    static TypeInfo of(Class<?> type) {
        return CACHE.get(type);
    }

    /** JDK collection classes (exact classes, not subclasses) and their tags. */
    private static final Map<Class<?>, Byte> COLLECTIONS = collectionTags();
    /** Non-collection built-in value classes. */
    private static final Map<Class<?>, TypeInfo> VALUES = valueInfos();

    private static Map<Class<?>, Byte> collectionTags() {
        Map<Class<?>, Byte> tags = new IdentityHashMap<>();
        tags.put(ArrayList.class, Tags.ARRAY_LIST);
        tags.put(LinkedList.class, Tags.LINKED_LIST);
        tags.put(ArrayDeque.class, Tags.ARRAY_DEQUE);
        tags.put(HashSet.class, Tags.HASH_SET);
        tags.put(LinkedHashSet.class, Tags.LINKED_HASH_SET);
        tags.put(TreeSet.class, Tags.TREE_SET);
        tags.put(HashMap.class, Tags.HASH_MAP);
        tags.put(LinkedHashMap.class, Tags.LINKED_HASH_MAP);
        tags.put(TreeMap.class, Tags.TREE_MAP);
        tags.put(Arrays.asList().getClass(), Tags.FIXED_SIZE_LIST);
        for (List<?> list : List.of(List.of(), List.of(1), List.of(1, 2, 3), List.of(1, 2, 3).subList(0, 2),
            Stream.of(1, 2, 3).toList(), Collections.unmodifiableList(new ArrayList<>()),
            Collections.unmodifiableList(new LinkedList<>()), Collections.emptyList(), Collections.singletonList(1))) {
            tags.put(list.getClass(), Tags.IMMUTABLE_LIST);
        }
        for (Set<?> set : List.of(Set.of(), Set.of(1), Set.of(1, 2, 3))) {
            tags.put(set.getClass(), Tags.IMMUTABLE_SET);
        }
        for (Set<?> set : List.of(Collections.unmodifiableSet(new HashSet<>()), Collections.emptySet(),
            Collections.singleton(1))) {
            tags.put(set.getClass(), Tags.UNMODIFIABLE_SET);
        }
        for (Map<?, ?> map : List.of(Map.of(), Map.of(1, 1), Map.of(1, 1, 2, 2))) {
            tags.put(map.getClass(), Tags.IMMUTABLE_MAP);
        }
        for (Map<?, ?> map : List.of(Collections.unmodifiableMap(new HashMap<>()), Collections.emptyMap(),
            Collections.singletonMap(1, 1))) {
            tags.put(map.getClass(), Tags.UNMODIFIABLE_MAP);
        }
        return tags;
    }

    private static Map<Class<?>, TypeInfo> valueInfos() {
        Map<Class<?>, TypeInfo> infos = new IdentityHashMap<>();
        infos.put(Boolean.class, simple(Kind.BOOLEAN, Tags.BOOLEAN, Boolean.class));
        infos.put(Byte.class, simple(Kind.BYTE, Tags.BYTE, Byte.class));
        infos.put(Short.class, simple(Kind.SHORT, Tags.SHORT, Short.class));
        infos.put(Character.class, simple(Kind.CHAR, Tags.CHAR, Character.class));
        infos.put(Integer.class, simple(Kind.INT, Tags.INT, Integer.class));
        infos.put(Long.class, simple(Kind.LONG, Tags.LONG, Long.class));
        infos.put(Float.class, simple(Kind.FLOAT, Tags.FLOAT, Float.class));
        infos.put(Double.class, simple(Kind.DOUBLE, Tags.DOUBLE, Double.class));
        infos.put(String.class, simple(Kind.STRING, Tags.STRING, String.class));
        infos.put(Optional.class, simple(Kind.OPTIONAL, Tags.OPTIONAL, Optional.class));
        infos.put(Instant.class, simple(Kind.INSTANT, Tags.INSTANT, Instant.class));
        infos.put(Duration.class, simple(Kind.DURATION, Tags.DURATION, Duration.class));
        infos.put(LocalDate.class, simple(Kind.LOCAL_DATE, Tags.LOCAL_DATE, LocalDate.class));
        infos.put(BigInteger.class, simple(Kind.BIG_INTEGER, Tags.BIG_INTEGER, BigInteger.class));
        infos.put(BigDecimal.class, simple(Kind.BIG_DECIMAL, Tags.BIG_DECIMAL, BigDecimal.class));
        infos.put(UUID.class, simple(Kind.UUID, Tags.UUID, UUID.class));
        return infos;
    }

    private static TypeInfo compute(Class<?> type) {
        TypeInfo value = VALUES.get(type);
        if (value != null) {
            return value;
        }
        if (type.isArray()) {
            return array(type);
        }
        if (Enum.class.isAssignableFrom(type) && type != Enum.class) {
            return simple(Kind.ENUM, Tags.ENUM, type.isEnum() ? type : type.getSuperclass());
        }
        if (type.isRecord()) {
            return record(type);
        }
        if (type.isAnnotationPresent(Transferable.class)) {
            return annotated(type);
        }
        Byte tag = COLLECTIONS.get(type);
        if (tag != null) {
            return simple(collectionKind(tag), tag, type);
        }
        String advice = DEFAULT_ADVICE;
        if (Serializable.class.isAssignableFrom(type)) {
            advice += " (java.io.Serializable does not make a class transferable)";
        }
        return refused(type, advice);
    }

    private static Kind collectionKind(byte tag) {
        return switch (tag) {
            case Tags.ARRAY_LIST, Tags.LINKED_LIST, Tags.ARRAY_DEQUE, Tags.HASH_SET, Tags.LINKED_HASH_SET ->
                Kind.COLLECTION;
            case Tags.TREE_SET -> Kind.SORTED_SET;
            case Tags.HASH_MAP, Tags.LINKED_HASH_MAP -> Kind.MAP;
            case Tags.TREE_MAP -> Kind.SORTED_MAP;
            case Tags.FIXED_SIZE_LIST -> Kind.FIXED_SIZE_LIST;
            case Tags.IMMUTABLE_LIST, Tags.IMMUTABLE_SET, Tags.UNMODIFIABLE_SET -> Kind.IMMUTABLE_COLLECTION;
            case Tags.IMMUTABLE_MAP, Tags.UNMODIFIABLE_MAP -> Kind.IMMUTABLE_MAP;
            default -> throw new IllegalStateException("no kind for tag " + tag);
        };
    }

    private static TypeInfo array(Class<?> type) {
        Class<?> component = type.getComponentType();
        if (component.isPrimitive()) {
            int shift;
            byte tag;
            if (component == boolean.class) { tag = Tags.BOOLEAN_ARRAY; shift = 0; }
            else if (component == byte.class) { tag = Tags.BYTE_ARRAY; shift = 0; }
            else if (component == short.class) { tag = Tags.SHORT_ARRAY; shift = 1; }
            else if (component == char.class) { tag = Tags.CHAR_ARRAY; shift = 1; }
            else if (component == int.class) { tag = Tags.INT_ARRAY; shift = 2; }
            else if (component == long.class) { tag = Tags.LONG_ARRAY; shift = 3; }
            else if (component == float.class) { tag = Tags.FLOAT_ARRAY; shift = 2; }
            else { tag = Tags.DOUBLE_ARRAY; shift = 3; }
            return new TypeInfo(Kind.PRIMITIVE_ARRAY, tag, type, null, null, 0, shift,
                UnsafeApi.arrayBaseOffset(type), null);
        }
        if (!acceptableComponent(component)) {
            return refused(type, "its element type " + component.getTypeName() + " is not transferable; "
                + DEFAULT_ADVICE);
        }
        return simple(Kind.OBJECT_ARRAY, Tags.OBJECT_ARRAY, type);
    }

    /**
     * Whether a class may appear in a message's class table: a record, an enum, a {@code @Transferable} class, a
     * built-in kind, or (as the element type of an array) {@code Object}, {@code Number} or an interface, or an array
     * of any of those. Resolving such a class never runs its static initializer.
     */
    static boolean acceptableComponent(Class<?> type) {
        if (type.isArray()) {
            Class<?> component = type.getComponentType();
            return component.isPrimitive() || acceptableComponent(component);
        }
        if (type.isPrimitive()) {
            return false;
        }
        return type == Object.class || type == Number.class || type == Enum.class || type == Record.class
            || type.isInterface() || type.isRecord() || type.isEnum()
            || type.isAnnotationPresent(Transferable.class)
            || VALUES.containsKey(type) || COLLECTIONS.containsKey(type);
    }

    /** The JDK's listed value kinds: boxes, strings, the value classes and collections above, and the roots. */
    static boolean isBuiltIn(Class<?> type) {
        return type == Object.class || type == Number.class || type == Enum.class || type == Record.class
            || VALUES.containsKey(type) || COLLECTIONS.containsKey(type);
    }

    private static TypeInfo record(Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        Slot[] slots = new Slot[components.length];
        Class<?>[] parameterTypes = new Class<?>[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                Field field = type.getDeclaredField(components[i].getName());
                if (!field.trySetAccessible()) {
                    return refused(type, "its component '" + field.getName() + "' is not accessible (open the"
                        + " package to the unnamed module) ");
                }
                slots[i] = new Slot(field, "component '" + field.getName() + "'");
                parameterTypes[i] = components[i].getType();
            }
            Constructor<?> constructor = type.getDeclaredConstructor(parameterTypes);
            if (!constructor.trySetAccessible()) {
                return refused(type, "its canonical constructor is not accessible (open the package to the"
                    + " unnamed module)");
            }
            return new TypeInfo(Kind.RECORD, Tags.RECORD, type, slots, constructor, fingerprint(slots), 0, 0, null);
        } catch (NoSuchFieldException | NoSuchMethodException e) {
            return refused(type, "its components cannot be read reflectively (" + e + ")");
        }
    }

    private static TypeInfo annotated(Class<?> type) {
        if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            return refused(type, "it is abstract; annotate the concrete classes @Transferable");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getDeclaredConstructor();
        } catch (NoSuchMethodException e) {
            return refused(type, "it is annotated @Transferable but has no no-argument constructor; add one (any"
                + " visibility)");
        }
        if (!constructor.trySetAccessible()) {
            return refused(type, "its no-argument constructor is not accessible");
        }
        List<Class<?>> hierarchy = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            hierarchy.addFirst(c);
        }
        List<Slot> slots = new ArrayList<>();
        for (Class<?> c : hierarchy) {
            Field[] fields = c.getDeclaredFields();
            Arrays.sort(fields, Comparator.comparing(Field::getName));
            for (Field field : fields) {
                int modifiers = field.getModifiers();
                if (Modifier.isStatic(modifiers) || Modifier.isTransient(modifiers)) {
                    continue;
                }
                if (!field.trySetAccessible()) {
                    return refused(type, "field '" + field.getName() + "' of " + c.getName()
                        + " is not accessible; superclasses outside your code cannot be copied");
                }
                String label = c == type ? "field '" + field.getName() + "'"
                    : "field '" + field.getName() + "' (of " + c.getSimpleName() + ")";
                slots.add(new Slot(field, label));
            }
        }
        Slot[] array = slots.toArray(new Slot[0]);
        return new TypeInfo(Kind.OBJECT, Tags.OBJECT, type, array, constructor, fingerprint(array), 0, 0, null);
    }

    private static int fingerprint(Slot[] slots) {
        int hash = 17;
        for (Slot slot : slots) {
            hash = hash * 31 + slot.field().getName().hashCode();
            hash = hash * 31 + slot.type().getName().hashCode();
        }
        return hash == 0 ? 1 : hash;
    }
}
