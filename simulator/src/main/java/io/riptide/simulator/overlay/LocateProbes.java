package io.riptide.simulator.overlay;

import io.riptide.core.id.Id;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.List;

/**
 * Issues locates in a simulated overlay and turns their outcomes into the figures the experiments
 * report: success, hops, and relative delay penalty (the request's one-way overlay latency over the
 * direct latency from requester to the replica that answered).
 */
public final class LocateProbes {
    private final SimulatedOverlay overlay;
    private final TransitStubTopology topology;
    private final List<Outcome> outcomes = new ArrayList<>();

    /** One locate: from where, for what, and how it ended (null while in flight). */
    public static final class Outcome {
        final int requester;
        final Id guid;
        LocateResult result;

        Outcome(int requester, Id guid) {
            this.requester = requester;
            this.guid = guid;
        }
    }

    public LocateProbes(SimulatedOverlay overlay, TransitStubTopology topology) {
        this.overlay = overlay;
        this.topology = topology;
    }

    /** Starts a locate of {@code guid} from the node at {@code requester}. */
    public void issue(int requester, Id guid, int ttl, boolean useBloom) {
        Outcome o = new Outcome(requester, guid);
        outcomes.add(o);
        overlay.node(requester).locate(guid, ttl, useBloom, r -> o.result = r);
    }

    /** Locates issued. */
    public int issued() {
        return outcomes.size();
    }

    /** Share of locates that reached a replica. */
    public double successRate() {
        if (outcomes.isEmpty()) {
            return 0;
        }
        long ok = outcomes.stream().filter(o -> o.result != null && o.result.found()).count();
        return ok / (double) outcomes.size();
    }

    /**
     * Failed locates counted by when they were issued, {@code perBucket} issues to a bucket (locates
     * issued at a steady pace: the buckets are intervals of time).
     */
    public long[] failuresByIssue(int perBucket) {
        long[] out = new long[(outcomes.size() + perBucket - 1) / perBucket];
        for (int i = 0; i < outcomes.size(); i++) {
            Outcome o = outcomes.get(i);
            if (o.result == null || !o.result.found()) {
                out[i / perBucket]++;
            }
        }
        return out;
    }

    /** Overlay hops of each successful locate. */
    public double[] hops() {
        return outcomes.stream().filter(o -> o.result != null && o.result.found())
                .mapToDouble(o -> o.result.hops()).toArray();
    }

    /**
     * The relative delay penalty of each successful locate answered by another node: the one-way
     * overlay latency (elapsed time less the replica's direct reply) over the direct latency.
     */
    public double[] rdp() {
        List<Double> out = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (o.result == null || !o.result.found()) {
                continue;
            }
            int replica = o.result.replica().address().port();
            if (replica == o.requester) {
                continue;
            }
            long direct = topology.latencyNanos(o.requester, replica);
            long oneWay = o.result.elapsedNanos() - topology.latencyNanos(replica, o.requester);
            out.add(oneWay / (double) direct);
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Counts of failures by reason, as text (for the report). */
    public String failures() {
        StringBuilder sb = new StringBuilder();
        outcomes.stream().filter(o -> o.result == null || !o.result.found())
                .map(o -> o.result == null ? "NO_ANSWER" : o.result.failure().name())
                .collect(java.util.stream.Collectors.groupingBy(s -> s, java.util.TreeMap::new, java.util.stream.Collectors.counting()))
                .forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return sb.toString();
    }
}
