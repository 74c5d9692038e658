package dev.makeroom.support.property;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The closed range of a generated long (a parameter or a list's element). */
@Target({ElementType.PARAMETER, ElementType.TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
public @interface LongRange {

    long min() default 0;

    long max() default Long.MAX_VALUE;
}
