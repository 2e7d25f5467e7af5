package dev.cumulus.internal.singlevm;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * What the agent's single-VM weaving calls on the arrays the program's own calls of {@code Class}'s member lists
 * return ({@code getDeclaredFields}, {@code getFields}, {@code getDeclaredMethods}, {@code getInterfaces},
 * {@code getGenericInterfaces}, and {@code getDeclaredField}/{@code getField} by name; the agent's
 * {@code ReflectionCalls}): the same arrays without the members the weaving added to program classes
 * ({@code $cumulus$state}, {@code $cumulus$id}, {@code $cumulus$statics}, the bridges of method references, the
 * {@link SharedObject} marker), and no such field by name, so a program that walks its classes' fields (a reflective
 * {@code toString}, a field-by-field copy) sees, reads and writes only its own. Public only because woven program
 * classes call it; not user API.
 */
public final class MemberLists {
    private MemberLists() {
    }

    public static Field[] visibleFields(Field[] fields) {
        return without(fields, MemberLists::added, Field[]::new);
    }

    public static Method[] visibleMethods(Method[] methods) {
        return without(methods, MemberLists::added, Method[]::new);
    }

    /** A field looked up by name: one the weaving added is not there, as on one JVM. */
    public static Field visibleField(Field field) throws NoSuchFieldException {
        if (added(field)) {
            throw new NoSuchFieldException(field.getName());
        }
        return field;
    }

    public static Class<?>[] visibleInterfaces(Class<?>[] interfaces) {
        return without(interfaces, i -> i == SharedObject.class, Class<?>[]::new);
    }

    public static Type[] visibleTypes(Type[] interfaces) {
        return without(interfaces, i -> i == SharedObject.class, Type[]::new);
    }

    /** A member the weaving added: its name has the woven prefix, and a program class declares it. */
    private static boolean added(Member m) {
        return m.getName().startsWith(ClassLayout.PREFIX) && ClassLayout.isProgramClass(m.getDeclaringClass());
    }

    /** {@code all} without the elements {@code added} accepts; {@code all} itself when there are none. */
    private static <T> T[] without(T[] all, Predicate<? super T> added, IntFunction<T[]> make) {
        if (Arrays.stream(all).noneMatch(added)) {
            return all;
        }
        return Arrays.stream(all).filter(added.negate()).toArray(make);
    }
}
