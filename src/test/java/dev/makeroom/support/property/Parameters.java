package dev.makeroom.support.property;

import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The generators of a property's parameters, and, where a parameter has few values, those values. */
final class Parameters {

    /** Values beyond this many are not listed (a parameter with more is never enumerated). */
    private static final long MOST_LISTED = 100_000;

    /** One parameter: its name, its generator, its values when it has few (else null). */
    record One(String name, Gen<?> gen, List<?> values) {
    }

    private Parameters() {
    }

    static List<One> of(Object instance, Method method) {
        List<One> all = new ArrayList<>();
        for (java.lang.reflect.Parameter parameter : method.getParameters()) {
            ForAll forAll = parameter.getAnnotation(ForAll.class);
            if (forAll == null) {
                throw new IllegalStateException(method + ": parameter " + parameter.getName() + " is not @ForAll");
            }
            all.add(forAll.value().isEmpty() ? byType(parameter.getName(), parameter.getAnnotatedType())
                    : new One(parameter.getName(), provided(instance, method.getDeclaringClass(), forAll.value()), null));
        }
        return all;
    }

    private static Gen<?> provided(Object instance, Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == 0 && m.isAnnotationPresent(Provide.class)) {
                    try {
                        m.setAccessible(true);
                        return (Gen<?>) m.invoke(java.lang.reflect.Modifier.isStatic(m.getModifiers()) ? null : instance);
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("@Provide " + name + " failed", e);
                    }
                }
            }
        }
        throw new IllegalStateException(type.getSimpleName() + " has no @Provide method " + name + "()");
    }

    private static One byType(String name, AnnotatedType type) {
        Class<?> raw = type.getType() instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type.getType();
        IntRange ints = type.getAnnotation(IntRange.class);
        LongRange longs = type.getAnnotation(LongRange.class);
        if (raw == int.class || raw == Integer.class) {
            int min = ints == null ? Integer.MIN_VALUE : ints.min();
            int max = ints == null ? Integer.MAX_VALUE : ints.max();
            return new One(name, new IntGen(min, max), range(min, max, true));
        }
        if (raw == long.class || raw == Long.class) {
            long min = longs == null ? Long.MIN_VALUE : longs.min();
            long max = longs == null ? Long.MAX_VALUE : longs.max();
            return new One(name, new LongGen(min, max), range(min, max, false));
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return new One(name, Gens.of(false, true), List.of(false, true));
        }
        if (raw.isEnum()) {
            List<?> values = Arrays.asList(raw.getEnumConstants());
            return new One(name, Gens.of(values), values);
        }
        if (raw == List.class && type instanceof AnnotatedParameterizedType list) {
            One element = byType(name, list.getAnnotatedActualTypeArguments()[0]);
            Size size = type.getAnnotation(Size.class);
            ListGen<?> lists = element.gen().list();
            return new One(name, size == null ? lists : lists.ofMinSize(size.min()).ofMaxSize(size.max()), null);
        }
        throw new IllegalStateException("no generator for " + type.getType() + " " + name + ": name a @Provide method");
    }

    private static List<Object> range(long min, long max, boolean ints) {
        if (max - min < 0 || max - min >= MOST_LISTED) {
            return null;
        }
        List<Object> values = new ArrayList<>();
        for (long v = min; v <= max; v++) {
            values.add(ints ? (Object) (int) v : (Object) v);
        }
        return values;
    }
}
