package dev.makeroom.support.property;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The property runner itself: it finds, shrinks and reports a failure, enumerates, checks coverage. */
class PropertyRunTest {

    /** Properties run by hand here (not JUnit tests themselves). */
    static final class Samples {
        final List<Object> seen = new ArrayList<>();

        @Provide
        Gen<List<Integer>> lists() {
            return Gens.integers().between(0, 500).list().ofMaxSize(40);
        }

        void sumsBelowAThousand(@ForAll("lists") List<Integer> numbers) {
            seen.add(numbers);
            assertThat(numbers.stream().mapToInt(Integer::intValue).sum()).isLessThan(1000);
        }

        enum Colour { RED, GREEN, BLUE }

        void everyCombination(@ForAll boolean flag, @ForAll Colour colour, @ForAll @IntRange(min = 1, max = 2) int n) {
            seen.add(flag + "/" + colour + "/" + n);
        }

        void anySeed(@ForAll long seed) {
            seen.add(seed);
        }

        void neverB(@ForAll long seed) {
            Tally.collect("a");
            Tally.coverage(c -> c.check("b").percentage(p -> p > 10));
        }

        void alwaysDiscarded(@ForAll long seed) {
            Assumptions.assumeTrue(false);
        }
    }

    private static Method method(String name) {
        for (Method m : Samples.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Test
    void a_failure_names_its_case_shrinks_it_and_the_printed_case_seed_runs_it_again() {
        Samples samples = new Samples();
        AssertionError failure = catchThrowableOfType(AssertionError.class,
                () -> new PropertyRun(samples, method("sumsBelowAThousand"), 1000).run(0, null));

        assertThat(failure.getMessage()).contains("Samples#sumsBelowAThousand failed on try")
                .contains("re-run this case: ./mvnw -o test -Dtest='Samples#sumsBelowAThousand' -Dmakeroom.case=");
        Matcher shrunk = Pattern.compile("shrunk in \\d+ steps to: numbers=\\[([0-9, ]*)]").matcher(failure.getMessage());
        assertThat(shrunk.find()).as(failure.getMessage()).isTrue();
        int[] smallest = Pattern.compile(", ").splitAsStream(shrunk.group(1)).mapToInt(Integer::parseInt).toArray();
        assertThat(smallest.length).as("two 500s are the fewest that reach 1000").isEqualTo(2);
        assertThat(smallest[0] + smallest[1]).isEqualTo(1000);
        assertThat(failure.getCause()).as("the shrunk case's own failure").isInstanceOf(AssertionError.class);

        Matcher caseSeed = Pattern.compile("case (-?\\d+): numbers=(\\[[^]]*])").matcher(failure.getMessage());
        assertThat(caseSeed.find()).isTrue();
        Samples again = new Samples();
        assertThatThrownBy(() -> new PropertyRun(again, method("sumsBelowAThousand"), 1000)
                .run(0, Long.parseLong(caseSeed.group(1)))).isInstanceOf(AssertionError.class);
        assertThat(again.seen.get(0)).as("the one case run first is the case reported").hasToString(caseSeed.group(2));
    }

    @Test
    void parameters_with_fewer_combinations_than_tries_are_enumerated_once_each() {
        Samples samples = new Samples();
        new PropertyRun(samples, method("everyCombination"), 100).run(0, null);
        assertThat(samples.seen).hasSize(12).doesNotHaveDuplicates();
    }

    @Test
    void a_base_seed_makes_the_same_cases_every_time_and_another_makes_others() {
        Samples first = new Samples();
        Samples second = new Samples();
        Samples other = new Samples();
        new PropertyRun(first, method("anySeed"), 200).run(0, null);
        new PropertyRun(second, method("anySeed"), 200).run(0, null);
        new PropertyRun(other, method("anySeed"), 200).run(1, null);
        assertThat(first.seen).hasSize(200).isEqualTo(second.seen);
        Set<Object> shared = new HashSet<>(first.seen);
        shared.retainAll(other.seen);
        assertThat(shared.size()).as("cases both runs made (edges: 0, -1, the ends)").isLessThan(20);
        assertThat(new HashSet<>(first.seen)).as("distinct cases").hasSizeGreaterThan(180);
    }

    @Test
    void a_coverage_check_that_misses_fails_the_property() {
        assertThatThrownBy(() -> new PropertyRun(new Samples(), method("neverB"), 50).run(0, null))
                .isInstanceOf(AssertionError.class).hasMessageContaining("[b] came in 0.0% of 50");
    }

    @Test
    void a_property_whose_cases_are_all_discarded_fails() {
        assertThatThrownBy(() -> new PropertyRun(new Samples(), method("alwaysDiscarded"), 50).run(0, null))
                .isInstanceOf(AssertionError.class).hasMessageContaining("50 cases discarded by assumptions, 0 checked");
    }

    record Holder(int[] amounts, List<String> names) {
    }

    @Test
    void a_case_is_shown_with_its_arrays_and_records_opened_up_and_cut_short() {
        assertThat(CaseText.of(new Holder(new int[] {1, 2}, List.of("a")), 100)).isEqualTo("Holder[amounts=[1, 2], names=[a]]");
        assertThat(CaseText.of(new long[] {1, 2, 3, 4, 5, 6}, 8)).isEqualTo("[1, 2, 3… (cut)");
    }

    @Test
    void a_shorter_record_or_a_lower_first_difference_is_simpler() {
        assertThat(Shrinker.simpler(new long[] {9}, new long[] {0, 0})).isTrue();
        assertThat(Shrinker.simpler(new long[] {1, 5}, new long[] {1, 7})).isTrue();
        assertThat(Shrinker.simpler(new long[] {1, -1}, new long[] {1, 7})).as("offsets are unsigned").isFalse();
        assertThat(Shrinker.simpler(new long[] {1, 7}, new long[] {1, 7})).isFalse();
    }
}
