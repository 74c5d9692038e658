package dev.makeroom.support.property;

import org.opentest4j.TestAbortedException;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One property's run: its tries, each a case drawn from a seed ({@link Seeds}); or, when its parameters
 * have fewer combinations than tries, every combination once. A case that fails is shrunk
 * ({@link Shrinker}) and reported with its seed, the case, the smallest failing case found and the
 * command that re-runs it. A case that a JUnit assumption aborts is discarded; more than five
 * discarded per case checked fails the run, as does a coverage check ({@link Tally}) that missed.
 */
final class PropertyRun {

    private static final int MOST_DISCARDED_PER_CHECKED = 5;
    private static final int SHRINK_STEPS = 2_000;
    private static final long SHRINK_NANOS = 30_000_000_000L;
    private static final int MOST_SHOWN = 2_000;

    private final Object instance;
    private final Method method;
    private final String name;
    private final List<Parameters.One> parameters;
    private final int tries;

    PropertyRun(Object instance, Method method, int tries) {
        this.instance = instance;
        this.method = method;
        this.name = method.getDeclaringClass().getSimpleName() + "#" + method.getName();
        this.parameters = Parameters.of(instance, method);
        this.tries = tries;
        method.setAccessible(true);
    }

    /** Runs the tries (or the one case asked for); throws the failure, shrunk, if one fails. */
    void run(long baseSeed, Long oneCase) {
        long combinations = combinations();
        boolean everyCombination = combinations <= tries;
        Tally tally = Tally.start();
        int checked = 0;
        int discarded = 0;
        try {
            long count = oneCase != null ? 1 : everyCombination ? combinations : tries;
            for (long t = 0; t < count; t++) {
                Outcome outcome;
                if (everyCombination) {
                    long index = oneCase != null ? oneCase : t;
                    outcome = runCombination(index);
                } else {
                    long seed = oneCase != null ? oneCase : Seeds.ofTry(baseSeed, name, (int) t);
                    outcome = runSeed(seed, t, count);
                }
                if (outcome == Outcome.DISCARDED) {
                    discarded++;
                } else {
                    checked++;
                }
            }
        } finally {
            Tally.stop();
        }
        if (checked == 0 || discarded > MOST_DISCARDED_PER_CHECKED * checked) {
            throw new AssertionError(name + ": " + discarded + " cases discarded by assumptions, " + checked
                    + " checked: the generator rarely makes what the property is about");
        }
        List<String> missed = tally.missedCoverage();
        if (!missed.isEmpty()) {
            throw new AssertionError(name + ": the cases missed what the property needs to see: "
                    + String.join("; ", missed));
        }
        System.out.println("property " + name + ": " + checked + " cases checked" + (discarded > 0 ? ", " + discarded
                + " discarded" : "") + (everyCombination ? " (every combination)" : "") + tally.summary());
    }

    private enum Outcome { CHECKED, DISCARDED }

    private Outcome runSeed(long seed, long tryNumber, long count) {
        Choices choices = Choices.fresh(seed);
        Object[] args;
        try {
            args = draw(choices);
        } catch (Rejected gaveUp) {
            throw new AssertionError(name + ": the generator gave up on case " + seed + ": " + gaveUp.getMessage());
        }
        Throwable failure = invoke(args);
        if (failure == null) {
            return Outcome.CHECKED;
        }
        if (failure instanceof TestAbortedException) {
            return Outcome.DISCARDED;
        }
        Shrunk shrunk = shrink(choices.record(), failure);
        throw new AssertionError(String.format("%s failed on try %d of %d%n  case %d: %s%n  shrunk in %d steps to: %s%n"
                        + "  re-run this case: ./mvnw -o test -Dtest='%s' -D%s=%d%n  the shrunk case failed with: %s",
                name, tryNumber + 1, count, seed, shown(args), shrunk.steps(), shown(shrunk.args()), name, Seeds.CASE,
                seed, shrunk.failure()), shrunk.failure());
    }

    private Outcome runCombination(long index) {
        Object[] args = combination(index);
        Throwable failure = invoke(args);
        if (failure == null) {
            return Outcome.CHECKED;
        }
        if (failure instanceof TestAbortedException) {
            return Outcome.DISCARDED;
        }
        throw new AssertionError(String.format("%s failed on combination %d of %d: %s%n"
                        + "  re-run this case: ./mvnw -o test -Dtest='%s' -D%s=%d%n  failed with: %s",
                name, index, combinations(), shown(args), name, Seeds.CASE, index, failure), failure);
    }

    private record Shrunk(Object[] args, Throwable failure, int steps) {
    }

    private Shrunk shrink(long[] record, Throwable failure) {
        long deadline = System.nanoTime() + SHRINK_NANOS;
        int[] steps = {0};
        Function<long[], Optional<long[]>> stillFails = candidate -> {
            if (System.nanoTime() > deadline) {
                return Optional.empty();
            }
            Choices choices = Choices.replaying(candidate);
            Object[] args;
            try {
                args = draw(choices);
            } catch (Rejected notMade) {
                return Optional.empty();
            }
            Throwable again = invoke(args);
            if (again == null || again.getClass() != failure.getClass()) {
                return Optional.empty();
            }
            steps[0]++;
            return Optional.of(choices.record());
        };
        long[] smallest = new Shrinker(stillFails, SHRINK_STEPS).shrink(record);
        Object[] args = draw(Choices.replaying(smallest));
        Throwable again = invoke(args);
        return again == null ? new Shrunk(draw(Choices.replaying(record)), failure, 0) : new Shrunk(args, again, steps[0]);
    }

    private Object[] draw(Choices choices) {
        Object[] args = new Object[parameters.size()];
        for (int i = 0; i < args.length; i++) {
            args[i] = parameters.get(i).gen().draw(choices);
        }
        return args;
    }

    /** Every parameter's values multiplied, or more than the tries when one has no list of values. */
    private long combinations() {
        long product = 1;
        for (Parameters.One p : parameters) {
            if (p.values() == null) {
                return Long.MAX_VALUE;
            }
            product *= p.values().size();
            if (product > tries) {
                return Long.MAX_VALUE;
            }
        }
        return product;
    }

    private Object[] combination(long index) {
        Object[] args = new Object[parameters.size()];
        for (int i = args.length - 1; i >= 0; i--) {
            List<?> values = parameters.get(i).values();
            args[i] = values.get((int) (index % values.size()));
            index /= values.size();
        }
        return args;
    }

    private Throwable invoke(Object[] args) {
        try {
            method.invoke(instance, args);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private String shown(Object[] args) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < args.length; i++) {
            text.append(i == 0 ? "" : ", ").append(parameters.get(i).name()).append('=')
                    .append(CaseText.of(args[i], MOST_SHOWN));
        }
        return text.toString();
    }
}
