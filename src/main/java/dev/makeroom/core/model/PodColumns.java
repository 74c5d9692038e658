package dev.makeroom.core.model;

import java.time.Instant;
import java.util.List;

/**
 * A node's pods, in the node's order, as columns of what preemption reads of every pod before it
 * searches: priority, the cpu and memory requested, the flags that shield a pod or weigh in a
 * tie-break, the tie-breaks' other inputs (QoS class, grace period, start), and its UID with the
 * UID's hash, so that a victim the scheduler names on the node is found among the node's few pods
 * ({@link #rowOf}) rather than in the view's map of every pod, whose buckets, keys and pods are
 * scattered over the heap (that lookup was an eighth of a preempt call made 20 ms apart).
 *
 * <p>Why: a preempt call reads these for every pod of hundreds of candidate nodes. Read from the
 * pods, each pod is three or four objects scattered over a heap of 150,000 (the pod's own fields
 * span several cache lines, then its requests, then its start time), and the decision spent most
 * of its time waiting for memory, more so when the cache was cold or shared. Here a node's pods
 * take a few contiguous lines. Built once per node version, as its requested sum is.
 *
 * <p>Work lost is read here too: the second each pod's unsaved progress began ({@link #savedSecond}) and,
 * for the one price a process decides by, what each pod loses a second ({@link #ratesBy}), since every
 * candidate of every node of a decision is priced, under either objective. Both are worked out the first
 * time a decision asks and kept with the node's version: most node versions (a binding's, a round's) are
 * never priced, and two more arrays for each of them slowed the rescheduler's walks over every node.
 */
public final class PodColumns {

    public static final byte TERMINATING = 1;
    public static final byte MIRROR = 2;
    public static final byte OPTED_OUT = 4;
    public static final byte ORIGINATOR = 8;
    /** {@link #startSecond} of a pod that has not started. */
    public static final long NOT_STARTED = Long.MIN_VALUE;

    static final PodColumns EMPTY = new PodColumns(List.of());

    private final int[] priority;
    private final long[] cpu;
    private final long[] memory;
    private final byte[] flags;
    private final byte[] qos;
    private final long[] grace;
    private final long[] startSecond;
    private final String[] uid;
    private final int[] uidHash;
    private final List<PodInfo> pods;   // the node's own list, for what is worked out when first asked
    private volatile long[] savedSecond; // null until asked; a race works it out twice, alike
    private volatile Rates rates;        // the last price's, likewise

    private PodColumns(List<PodInfo> pods) {
        int n = pods.size();
        priority = new int[n];
        cpu = new long[n];
        memory = new long[n];
        flags = new byte[n];
        qos = new byte[n];
        grace = new long[n];
        startSecond = new long[n];
        uid = new String[n];
        uidHash = new int[n];
        this.pods = List.copyOf(pods); // the node's list already is (NodeInfo): then no copy
        for (int i = 0; i < n; i++) {
            PodInfo pod = pods.get(i);
            priority[i] = pod.priority();
            cpu[i] = pod.requests().get(Resources.CPU);
            memory[i] = pod.requests().get(Resources.MEMORY);
            flags[i] = flagsOf(pod);
            qos[i] = (byte) pod.qos().ordinal();
            grace[i] = pod.terminationGracePeriodSeconds();
            startSecond[i] = secondOf(pod.startTime());
            uid[i] = pod.uid();
            uidHash[i] = uid[i].hashCode();
        }
    }

    /** The columns of {@code pods}: row i is pod i. */
    public static PodColumns of(List<PodInfo> pods) {
        return pods.isEmpty() ? EMPTY : new PodColumns(pods);
    }

    /** A pod's flags, as its row holds them. */
    public static byte flagsOf(PodInfo pod) {
        return (byte) ((pod.terminating() ? TERMINATING : 0) | (pod.mirror() ? MIRROR : 0)
                | (pod.optedOut() ? OPTED_OUT : 0) | (pod.originator() ? ORIGINATOR : 0));
    }

    /** An instant's epoch second, {@link #NOT_STARTED} for none. */
    public static long secondOf(Instant start) {
        return start == null ? NOT_STARTED : start.getEpochSecond();
    }

    /**
     * The epoch second from which an eviction would lose {@code pod}'s progress: the later of its start
     * and its last checkpoint ({@code makeroom.dev/checkpointed-at}); {@link #NOT_STARTED} for a pod not started.
     */
    public static long savedSecondOf(PodInfo pod) {
        Instant start = pod.startTime();
        if (start == null) {
            return NOT_STARTED;
        }
        Instant saved = pod.checkpointedAt();
        return saved != null && saved.isAfter(start) ? saved.getEpochSecond() : start.getEpochSecond();
    }

    public int size() {
        return priority.length;
    }

    /** The row of the pod whose UID is {@code uid}, or -1 when none of the node's pods has it. */
    public int rowOf(String uid) {
        int hash = uid.hashCode();
        for (int row = 0; row < uidHash.length; row++) {
            if (uidHash[row] == hash && this.uid[row].equals(uid)) {
                return row;
            }
        }
        return -1;
    }

    public int priority(int row) {
        return priority[row];
    }

    public byte flags(int row) {
        return flags[row];
    }

    public boolean has(int row, byte flag) {
        return (flags[row] & flag) != 0;
    }

    /** Whether the columns hold what pods free of {@code resource}: cpu and memory (any other, ask the pod). */
    public static boolean holds(String resource) {
        return Resources.CPU.equals(resource) || Resources.MEMORY.equals(resource);
    }

    /** What evicting the pod frees of {@code resource}, one the columns {@link #holds}, as {@link PodInfo#frees} says. */
    public long frees(int row, String resource) {
        if (!holds(resource)) {
            throw new IllegalArgumentException("the columns hold cpu and memory, not " + resource);
        }
        return PodInfo.freed(resource, Resources.CPU.equals(resource) ? cpu[row] : memory[row]);
    }

    /** The ordinal of the pod's {@link QosClass}. */
    public int qos(int row) {
        return qos[row];
    }

    public long terminationGracePeriodSeconds(int row) {
        return grace[row];
    }

    /** The pod's start as an epoch second, or {@link #NOT_STARTED}. */
    public long startSecond(int row) {
        return startSecond[row];
    }

    /** {@link #savedSecondOf} the pod of {@code row}. */
    public long savedSecond(int row) {
        long[] known = savedSecond;
        if (known == null) {
            known = new long[pods.size()];
            for (int i = 0; i < known.length; i++) {
                known[i] = savedSecondOf(pods.get(i));
            }
            savedSecond = known;
        }
        return known[row];
    }

    /** What a pod holding some requests loses a second it runs unsaved: the work price. */
    public interface RateOf {
        long rate(Resources requests);
    }

    /** Each row's {@link RateOf#rate} by {@code price}: worked out once per node version and price. */
    public long[] ratesBy(RateOf price) {
        Rates known = rates;
        if (known != null && known.price == price) {
            return known.perRow;
        }
        long[] perRow = new long[pods.size()];
        for (int row = 0; row < perRow.length; row++) {
            perRow[row] = price.rate(pods.get(row).requests());
        }
        rates = new Rates(price, perRow);
        return perRow;
    }

    private record Rates(RateOf price, long[] perRow) {
    }
}
