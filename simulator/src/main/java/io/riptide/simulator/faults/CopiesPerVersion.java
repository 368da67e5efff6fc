package io.riptide.simulator.faults;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * At most one signed copy per version: every copy any live node holds of a watched object, looked
 * at every tick (read without counting a use, so watching changes no eviction), must carry the
 * certificate the first copy seen of that version carried. Two certificates with one version number
 * are two copies the provider made of that version: gateways that each thought they held the fetch
 * lease, or a gateway that numbered a version without knowing the current one (after a restart,
 * say). Proxies refuse a version no newer than one they saw, so whichever copy they met second is
 * never served to them, whatever its content.
 */
public final class CopiesPerVersion {
    private final Invariant invariant = new Invariant("one-copy-per-version",
            "no two different signed copies of one object ever carry the same version number, on any node at any time"
                    + " (the fetch lease and the version numbering make one copy per version)");
    private final Map<Id, Map<Long, HeldCopy>> first = new HashMap<>();
    private final Map<Id, String> names;

    /** Watches the objects {@code names} lists (GUID to a name for messages). */
    public CopiesPerVersion(Map<Id, String> names) {
        this.names = Map.copyOf(names);
    }

    /** Looks at every copy the live nodes of {@code overlay} hold now. */
    public void scan(SimulatedOverlay overlay, long nowNanos) {
        List<Integer> live = overlay.liveVertices();
        for (Id guid : names.keySet()) {
            for (int v : live) {
                OverlayNode node = overlay.node(v);
                HeldCopy copy = HeldCopy.of(node.replicas().peek(guid));
                if (copy != null) {
                    see(guid, copy, v, nowNanos);
                }
            }
        }
    }

    private void see(Id guid, HeldCopy copy, int vertex, long nowNanos) {
        Map<Long, HeldCopy> byVersion = first.computeIfAbsent(guid, g -> new HashMap<>());
        HeldCopy earlier = byVersion.putIfAbsent(copy.version(), copy);
        invariant.check(earlier == null || earlier.sameCertificate(copy), nowNanos, () -> "vertex " + vertex + " holds "
                + names.get(guid) + " version " + copy.version() + " with certificate " + copy.shortId() + ", but version "
                + copy.version() + " was first seen with certificate " + earlier.shortId()
                + (earlier.sameBody(copy) ? " (the same body, signed again)" : " (a different body)"));
    }

    public Invariant invariant() {
        return invariant;
    }

    /** Versions seen so far, over all the watched objects. */
    public long versionsSeen() {
        return first.values().stream().mapToLong(Map::size).sum();
    }
}
