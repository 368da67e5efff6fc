package io.riptide.simulator.discovery;

import io.riptide.simulator.topology.TransitStubTopology;
import java.util.List;

/**
 * Judges the hint log against the truth: for each hint, which running manager was nearest its
 * client by the topology's latency, and so how fast and how fully traffic moved to each new manager.
 */
public final class DiscoveryAnalysis {
    private final List<Hint> hints;
    private final ManagerStarts managers;
    private final int[] nearest;

    /** Analysis of {@code hints} (in order of sending) among {@code managers} on {@code topology}. */
    public DiscoveryAnalysis(List<Hint> hints, ManagerStarts managers, TransitStubTopology topology) {
        this.hints = List.copyOf(hints);
        this.managers = managers;
        this.nearest = new int[hints.size()];
        for (int i = 0; i < nearest.length; i++) {
            Hint h = this.hints.get(i);
            nearest[i] = managers.nearest(topology, h.client(), h.sentNanos());
        }
    }

    /** Hints per manager in each interval of {@code intervalNanos} up to {@code endNanos}. */
    public IntervalCounts perInterval(long intervalNanos, long endNanos) {
        int k = (int) ((endNanos + intervalNanos - 1) / intervalNanos);
        long[][] byManager = new long[managers.count()][k];
        long[] unanswered = new long[k];
        long[] total = new long[k];
        long[] good = new long[k];
        for (int i = 0; i < nearest.length; i++) {
            Hint h = hints.get(i);
            int slot = (int) (h.sentNanos() / intervalNanos);
            if (slot >= k) {
                continue;
            }
            total[slot]++;
            if (h.delivered()) {
                byManager[h.manager()][slot]++;
            } else {
                unanswered[slot]++;
            }
            if (h.manager() == nearest[i]) {
                good[slot]++;
            }
        }
        double[] toNearest = new double[k];
        for (int s = 0; s < k; s++) {
            toNearest[s] = total[s] == 0 ? Double.NaN : good[s] / (double) total[s];
        }
        return new IntervalCounts(intervalNanos, byManager, unanswered, toNearest);
    }

    /**
     * The time from manager {@code m}'s start to the end of the first interval (of {@code intervalNanos},
     * counted from the traffic's start) in which at least {@code threshold} of the hints sent, from its
     * start on, by clients for which it was the nearest running manager reached it; -1 if none did
     * before {@code endNanos}.
     */
    public long shiftNanos(int m, long intervalNanos, long endNanos, double threshold) {
        long start = managers.startNanos()[m];
        for (long from = start / intervalNanos * intervalNanos; from < endNanos; from += intervalNanos) {
            long to = Math.min(from + intervalNanos, endNanos);
            double share = shareToNearest(m, Math.max(from, start), to);
            if (!Double.isNaN(share) && share >= threshold) {
                return to - start;
            }
        }
        return -1;
    }

    /** Of the hints sent in [{@code fromNanos}, {@code toNanos}) by clients nearest manager {@code m}, the share it received (NaN if none). */
    public double shareToNearest(int m, long fromNanos, long toNanos) {
        long total = 0;
        long reached = 0;
        for (int i = 0; i < nearest.length; i++) {
            Hint h = hints.get(i);
            if (nearest[i] == m && h.sentNanos() >= fromNanos && h.sentNanos() < toNanos) {
                total++;
                if (h.manager() == m) {
                    reached++;
                }
            }
        }
        return total == 0 ? Double.NaN : reached / (double) total;
    }
}
