package dev.makeroom.core.room;

import java.util.function.ToDoubleFunction;

/**
 * The multipliers that make a surrogate of the cover constraints strongest.
 *
 * <p><b>Design.</b> A set that frees every missing resource also frees any positive mix of them:
 * adding the constraints up with multipliers {@code λ_d ≥ 0} (on shares of what is missing) gives one
 * constraint, whose fewest pods are a lower bound for every λ. Which λ matters a great deal: with
 * equal multipliers a resource every pod frees (a pod count at the node's limit) or one far from
 * binding weighs as much as the binding ones, and on full nodes with cpu and memory binding
 * together the bound fell to half the optimum. The best λ is close to the dual of the linear
 * relaxation; it is found here without a solver: a grid over the simplex of multipliers, then a
 * pattern search that moves weight from one resource to another, the step halving when no move
 * helps. Each try is one evaluation of the bound ({@code strength}: fractional, so that the search
 * sees progress between whole pods). The result only tunes a bound that is sound for any λ, so a
 * search that stops short of the best λ costs strength, never correctness.
 */
final class SurrogateDirection {

    private static final int REFINEMENTS = 4;

    private SurrogateDirection() {
    }

    /**
     * The multipliers over the resources marked {@code missing} (0 for the others), summing to 1,
     * whose {@code strength} is greatest; null when fewer than two resources are missing.
     */
    static double[] strongest(boolean[] missing, ToDoubleFunction<double[]> strength) {
        int[] dims = marked(missing);
        if (dims.length < 2) {
            return null;
        }
        int steps = dims.length == 2 ? 16 : dims.length == 3 ? 8 : dims.length == 4 ? 4 : 2;
        double[] best = new double[missing.length];
        double[] bestStrength = {Double.NEGATIVE_INFINITY};
        grid(dims, 0, steps, steps, new double[missing.length], strength, best, bestStrength);
        double step = 1.0 / (2 * steps);
        for (int round = 0; round < REFINEMENTS; round++, step /= 2) {
            boolean moved = true;
            while (moved) {
                moved = false;
                for (int from : dims) {
                    for (int to : dims) {
                        if (from == to || best[from] < step) {
                            continue;
                        }
                        double[] tried = best.clone();
                        tried[from] -= step;
                        tried[to] += step;
                        double s = strength.applyAsDouble(tried);
                        if (s > bestStrength[0]) {
                            bestStrength[0] = s;
                            System.arraycopy(tried, 0, best, 0, best.length);
                            moved = true;
                        }
                    }
                }
            }
        }
        return best;
    }

    /** Every point of the simplex with coordinates in multiples of 1/{@code steps}, the best kept. */
    private static void grid(int[] dims, int at, int left, int steps, double[] point, ToDoubleFunction<double[]> strength,
                             double[] best, double[] bestStrength) {
        if (at == dims.length - 1) {
            point[dims[at]] = (double) left / steps;
            double s = strength.applyAsDouble(point);
            if (s > bestStrength[0]) {
                bestStrength[0] = s;
                System.arraycopy(point, 0, best, 0, best.length);
            }
            return;
        }
        for (int k = 0; k <= left; k++) {
            point[dims[at]] = (double) k / steps;
            grid(dims, at + 1, left - k, steps, point, strength, best, bestStrength);
        }
    }

    private static int[] marked(boolean[] missing) {
        int n = 0;
        for (boolean m : missing) {
            n += m ? 1 : 0;
        }
        int[] dims = new int[n];
        for (int d = 0, k = 0; d < missing.length; d++) {
            if (missing[d]) {
                dims[k++] = d;
            }
        }
        return dims;
    }
}
