package dev.makeroom.support;

import org.assertj.core.configuration.Configuration;
import org.assertj.core.presentation.Representation;
import org.assertj.core.presentation.StandardRepresentation;

/**
 * AssertJ's configuration for this project's tests (found through
 * {@code META-INF/services/org.assertj.core.configuration.Configuration}): no value is shown in a
 * failure message at more than {@link #LONGEST} characters.
 *
 * <p>Why: a failure whose message ran to about a gigabyte (two decisions of 65,000 nodes, printed
 * whole) overflowed surefire's report of it, and surefire then said "Tests run: 0" and the build
 * passed. A bounded message keeps a failing test failing.
 */
public final class BoundedFailureMessages extends Configuration {

    static final int LONGEST = 20_000;

    @Override
    public Representation representation() {
        return new StandardRepresentation() {
            @Override
            public String toStringOf(Object object) {
                return bounded(super.toStringOf(object));
            }
        };
    }

    static String bounded(String shown) {
        if (shown == null || shown.length() <= LONGEST) {
            return shown;
        }
        return shown.substring(0, LONGEST) + "… (" + (shown.length() - LONGEST) + " more characters)";
    }
}
