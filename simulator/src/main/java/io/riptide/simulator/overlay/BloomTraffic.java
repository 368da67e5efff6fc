package io.riptide.simulator.overlay;

import io.riptide.dolr.bloom.LocalArea;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.report.ResultJson;

/** The Bloom filter messages every live node of an overlay has sent, summed: what filter freshness costs. */
public final class BloomTraffic {
    private BloomTraffic() {
    }

    /** Pulls, answers and triggered pushes sent by the live nodes so far. */
    public static LocalArea.Traffic total(SimulatedOverlay overlay) {
        long pulls = 0;
        long answers = 0;
        long pushes = 0;
        for (int v : overlay.liveVertices()) {
            LocalArea.Traffic t = overlay.node(v).localArea().traffic();
            pulls += t.pulls();
            answers += t.answers();
            pushes += t.pushes();
        }
        return new LocalArea.Traffic(pulls, answers, pushes);
    }

    /** Adds {@code bloom_pulls}, {@code bloom_answers} and {@code bloom_pushes} to {@code result}. */
    public static ResultJson putInto(ResultJson result, LocalArea.Traffic traffic) {
        return result.put("bloom_pulls", traffic.pulls())
                .put("bloom_answers", traffic.answers())
                .put("bloom_pushes", traffic.pushes());
    }
}
