package io.riptide.simulator.overlay;

import io.riptide.core.id.Id;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The routes the overlay's own rule would take if every routing-table slot held the nearest node
 * that could fill it and every leaf set were exact: the delay penalty proximity neighbour selection
 * can reach at best on this topology and node set. A measured penalty is judged against this, not
 * against 1.0.
 */
public final class IdealRoutes {
    private final SimulatedOverlay overlay;
    private final TransitStubTopology topology;
    private final int leafSetHalf;
    private final List<Id> ids = new ArrayList<>();
    private final int[] vertices;

    public IdealRoutes(SimulatedOverlay overlay, TransitStubTopology topology, int leafSetHalf) {
        this.overlay = overlay;
        this.topology = topology;
        this.leafSetHalf = leafSetHalf;
        for (int v : overlay.liveVertices()) {
            ids.add(overlay.node(v).self().id());
        }
        Collections.sort(ids);
        vertices = new int[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            vertices[i] = overlay.vertexOf(ids.get(i));
        }
    }

    /** The summed latency of the ideal route from {@code source} to the root of {@code key}. */
    public long pathNanos(int source, Id key) {
        int root = overlay.trueRoot(key);
        long total = 0;
        int at = source;
        for (int hops = 0; at != root && hops < Id.DIGITS + 2; hops++) {
            Id self = overlay.node(at).self().id();
            int next;
            if (leafSetCovers(self, key)) {
                next = root;
            } else {
                int row = self.sharedPrefixLength(key);
                next = nearestWithPrefix(at, key, row + 1);
                if (next < 0) {
                    next = root; // no node shares one more digit: the leaf set's side of the ring decides
                }
            }
            total += topology.latencyNanos(at, next);
            at = next;
        }
        return total;
    }

    private boolean leafSetCovers(Id self, Id key) {
        int n = ids.size();
        int me = Collections.binarySearch(ids, self);
        int k = Collections.binarySearch(ids, key);
        int insertion = k >= 0 ? k : -k - 1;
        // Positions clockwise from this node to the key's insertion point, and counter-clockwise.
        int clockwise = Math.floorMod(insertion - me, n);
        int counter = Math.floorMod(me - insertion, n) + 1;
        return Math.min(clockwise, counter) <= leafSetHalf;
    }

    /** The vertex nearest {@code from} among nodes sharing the first {@code digits} digits of {@code key}, or -1. */
    private int nearestWithPrefix(int from, Id key, int digits) {
        int lo = lowerBound(key, digits);
        int best = -1;
        long bestNanos = Long.MAX_VALUE;
        for (int i = lo; i < ids.size() && ids.get(i).sharedPrefixLength(key) >= digits; i++) {
            long d = topology.latencyNanos(from, vertices[i]);
            if (d < bestNanos) {
                bestNanos = d;
                best = vertices[i];
            }
        }
        return best;
    }

    /** The first index whose ID is not below the smallest ID with {@code key}'s first {@code digits} digits. */
    private int lowerBound(Id key, int digits) {
        int lo = 0;
        int hi = ids.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            Id id = ids.get(mid);
            if (id.sharedPrefixLength(key) >= digits || id.compareTo(key) > 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
