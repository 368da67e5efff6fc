package io.riptide.dolr.placement;

import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.dolr.placement.PlacementMessages.Distances;
import io.riptide.dolr.placement.PlacementMessages.DistancesRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Round trips seen from another node: {@code from(observer, targets)} asks the observer to measure
 * its distance to each target. An agent placing a replica for a group of readers compares where the
 * readers are nearest without a coordinate system (a cache manager looking for its campus's centre).
 * Each request is bounded ({@link PlacementMessages#MAX_TARGETS}) and its probes go through the
 * node's prober, whose queue is bounded too.
 */
public final class RemoteDistances {
    private final Env env;
    private final BiConsumer<NodeHandle, LongConsumer> measure;
    private final Duration deadline;
    private final PendingRequests<long[]> requests;

    /** Distances measured with {@code measure} (RTT in nanoseconds, -1 if the peer did not answer). */
    public RemoteDistances(Env env, BiConsumer<NodeHandle, LongConsumer> measure, Duration deadline) {
        this.env = env;
        this.measure = measure;
        this.deadline = deadline;
        this.requests = new PendingRequests<>(env);
    }

    /**
     * Hands {@code done} the round trips (nanoseconds, -1 where unknown) from {@code observer} to each
     * of the first {@link PlacementMessages#MAX_TARGETS} {@code targets}, in order; all -1 if the
     * observer did not answer in time.
     */
    public void from(NodeHandle observer, List<NodeHandle> targets, Consumer<long[]> done) {
        List<NodeHandle> asked = targets.subList(0, Math.min(targets.size(), PlacementMessages.MAX_TARGETS));
        if (observer.id().equals(env.self().id())) {
            measureAll(asked, done);
            return;
        }
        long[] unknown = new long[asked.size()];
        Arrays.fill(unknown, -1);
        long id = requests.add(deadline, done, () -> unknown);
        env.send(observer.address(), new DistancesRequest(id, asked));
    }

    /** A peer asks for this node's round trips to some targets. */
    public void onRequest(NodeHandle from, DistancesRequest request) {
        measureAll(request.targets(), rtts -> {
            List<Long> micros = new ArrayList<>(rtts.length);
            for (long rtt : rtts) {
                micros.add(rtt < 0 ? -1 : rtt / 1000);
            }
            env.send(from.address(), new Distances(request.requestId(), micros));
        });
    }

    /** The answer to one of this node's requests. */
    public void onReply(Distances reply) {
        long[] nanos = reply.rttMicros().stream().mapToLong(us -> us < 0 ? -1 : us * 1000).toArray();
        requests.complete(reply.requestId(), nanos);
    }

    private void measureAll(List<NodeHandle> targets, Consumer<long[]> done) {
        long[] rtts = new long[targets.size()];
        int[] left = {targets.size()};
        if (targets.isEmpty()) {
            done.accept(rtts);
            return;
        }
        for (int i = 0; i < targets.size(); i++) {
            int slot = i;
            NodeHandle target = targets.get(i);
            if (target.id().equals(env.self().id())) {
                answer(rtts, slot, 0, left, done);
            } else {
                measure.accept(target, rtt -> answer(rtts, slot, rtt, left, done));
            }
        }
    }

    private static void answer(long[] rtts, int slot, long rtt, int[] left, Consumer<long[]> done) {
        rtts[slot] = rtt;
        if (--left[0] == 0) {
            done.accept(rtts);
        }
    }
}
