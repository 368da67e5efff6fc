package io.riptide.simulator.faults;

import java.util.List;

/**
 * One fault of a plan: its kind, when it starts and ends in virtual time (a clock skew never ends:
 * {@link #PERMANENT}), and its size.
 *
 * @param kind        what it does
 * @param startNanos  when it starts, in virtual nanoseconds since the simulation began
 * @param endNanos    when it heals (the partition heals, the node restarts, the disk is fast again, the
 *                    network stops dropping, doubling or delaying), or {@link #PERMANENT}
 * @param probability the share of messages it hits (loss, duplication, reordering); 0 otherwise
 * @param nanos       its size in time: the most extra delay (reordering), the clock's step (skew, may
 *                    be negative), the delay of each disk read (slow disk); 0 otherwise
 * @param vertices    the hosts it hits (crash, skew, slow disk), or the stubs cut off (partition); empty otherwise
 */
public record Fault(FaultKind kind, long startNanos, long endNanos, double probability, long nanos, List<Integer> vertices) {
    /** The end of a fault that never heals. */
    public static final long PERMANENT = Long.MAX_VALUE;

    public Fault {
        vertices = List.copyOf(vertices);
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("a fault ends before it starts: " + startNanos + " > " + endNanos);
        }
    }

    /** Whether it heals at all. */
    public boolean heals() {
        return endNanos != PERMANENT;
    }

    /** Whether it is in force at {@code nanos}. */
    public boolean activeAt(long nanos) {
        return nanos >= startNanos && nanos < endNanos;
    }
}
