package io.riptide.dolr.location;

import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.routing.PeerTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * Orders candidate replicas by this node's round trip to each. Peers measured already are ordered by
 * what is known; the rest are probed at once, and since probe answers arrive in order of round trip,
 * the first that comes back no later than the nearest measured one is the nearest of all, and the wait
 * ends there. A probe not answered by then (or by {@code cap}) puts its peer last.
 */
final class NearestFirst {
    private NearestFirst() {
    }

    /** Calls {@code done} once, with {@code candidates} nearest first. */
    static void order(Env env, PeerTable peers, BiConsumer<NodeHandle, LongConsumer> measure, List<NodeHandle> candidates,
                      Duration cap, Consumer<List<NodeHandle>> done) {
        int n = candidates.size();
        long[] rtt = new long[n];
        long nearestKnown = Long.MAX_VALUE;
        List<Integer> unmeasured = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            NodeHandle c = candidates.get(i);
            rtt[i] = peers.distance(c.id());
            if (rtt[i] >= 0) {
                nearestKnown = Math.min(nearestKnown, rtt[i]);
            } else {
                unmeasured.add(i);
            }
        }
        Runnable finish = () -> {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                order.add(i);
            }
            // Stable: unanswered keep the order they came in (the pointer holder's nearest first).
            order.sort(Comparator.comparingLong(i -> rtt[i] < 0 ? Long.MAX_VALUE : rtt[i]));
            done.accept(order.stream().map(candidates::get).toList());
        };
        if (unmeasured.isEmpty()) {
            finish.run();
            return;
        }
        long wait = Math.min(nearestKnown, cap.toNanos());
        boolean[] finished = {false};
        int[] outstanding = {unmeasured.size()};
        Cancellable[] timer = {null};
        Runnable once = () -> {
            if (!finished[0]) {
                finished[0] = true;
                if (timer[0] != null) {
                    timer[0].cancel();
                }
                finish.run();
            }
        };
        timer[0] = env.schedule(Duration.ofNanos(wait), once);
        long beat = nearestKnown;
        for (int i : unmeasured) {
            measure.accept(candidates.get(i), (LongConsumer) r -> {
                if (finished[0]) {
                    return;
                }
                rtt[i] = r;
                outstanding[0]--;
                if ((r >= 0 && r <= beat) || outstanding[0] == 0) {
                    once.run();
                }
            });
        }
    }
}
