package io.riptide.simulator.scenario;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.agents.ClientResult;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the trace replay's hit ratio falls short of an unbounded shared cache's: the requests such a
 * cache would hit (a URL asked for before, same version) that Riptide did not, by how each was
 * answered, how long after the URL's previous request (virtual time, so trace time divided by the
 * replay's compression), whether that request came from the same lab, and whether any node held the
 * object when the request was made. The equal-storage baseline is that cache whenever its bytes hold
 * the whole working set, so these add up to the gap.
 */
final class RepeatMisses {
    private final SimulatedOverlay overlay;
    private final PublicKey provider;
    private final Map<String, Asked> lastAsked = new HashMap<>();
    private final Map<String, Long> counts = new TreeMap<>();

    /** When a URL was last asked for and from which lab. */
    private record Asked(long nanos, String lab) {
    }

    RepeatMisses(SimulatedOverlay overlay, PublicKey provider) {
        this.overlay = overlay;
        this.provider = provider;
    }

    /**
     * Notes a request made now; returns the label its answer is counted under if it misses although
     * the unbounded cache hits ({@code repeat}: seen before, same version, storable), else null.
     */
    String asked(String url, String lab, long nowNanos, boolean repeat) {
        Asked previous = lastAsked.put(url, new Asked(nowNanos, lab));
        if (!repeat || previous == null) {
            return null;
        }
        return "/" + gap(nowNanos - previous.nanos()) + (previous.lab().equals(lab) ? "/same_lab" : "/other_lab")
                + (heldAnywhere(url) ? "/held" : "/nowhere");
    }

    /** Counts a repeat Riptide missed, answered as {@code source}; {@code label} is what {@link #asked} returned. */
    void missed(ClientResult.Source source, String label) {
        counts.merge(source.name().toLowerCase(Locale.ROOT) + label, 1L, Long::sum);
    }

    Map<String, Long> counts() {
        return counts;
    }

    private boolean heldAnywhere(String url) {
        String canonical;
        try {
            canonical = CanonicalUrl.of(url).value();
        } catch (IllegalArgumentException e) {
            return false;
        }
        Id guid = ObjectNames.objectGuid(provider, canonical, "");
        for (int v : overlay.liveVertices()) {
            if (overlay.node(v).replicas().contains(guid)) {
                return true;
            }
        }
        return false;
    }

    private static String gap(long nanos) {
        double s = nanos / 1e9;
        return s < 1 ? "under_1s" : s < 10 ? "1_10s" : s < 60 ? "10_60s" : "over_60s";
    }
}
