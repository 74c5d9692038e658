package dev.makeroom.support;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A failing assertion on values whose whole text is huge still fails, with a message of bounded size. */
class BoundedFailureMessagesTest {

    record Large(List<String> items) {
    }

    @Test
    void a_failure_shows_each_value_at_its_bounded_length() {
        List<String> many = Collections.nCopies(200_000, "an item of a very large value");
        Large expected = new Large(many);
        Large actual = new Large(List.copyOf(many).subList(1, many.size()));

        AssertionError failure = catchThrowableOfType(AssertionError.class,
                () -> assertThat(actual).isEqualTo(expected));

        assertThat(failure).isNotNull();
        assertThat(failure.getMessage().length()).isBetween(2 * BoundedFailureMessages.LONGEST,
                3 * BoundedFailureMessages.LONGEST);
        assertThat(failure.getMessage()).contains("more characters)");
    }
}
