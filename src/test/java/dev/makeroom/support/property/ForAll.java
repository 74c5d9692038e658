package dev.makeroom.support.property;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A generated parameter of a {@link Property}: from the {@link Provide} method named by
 * {@link #value()}, or, left empty, from its type (long, int, boolean, an enum, a list of those), within
 * {@link IntRange}, {@link LongRange} and {@link Size} where given.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
public @interface ForAll {

    /** The name of the {@link Provide} method whose generator makes this parameter; empty: by type. */
    String value() default "";
}
