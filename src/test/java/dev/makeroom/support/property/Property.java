package dev.makeroom.support.property;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A property: a JUnit test whose {@link ForAll} parameters are generated, {@link #tries()} times, from
 * one seed ({@link Seeds}). A failing case is shrunk and reported with the command that re-runs it;
 * docs/development.md says how to read and re-run one.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Test
@ExtendWith(PropertyExtension.class)
public @interface Property {

    /** How many cases are generated (fewer only when the parameters have fewer values in all). */
    int tries() default 1000;
}
