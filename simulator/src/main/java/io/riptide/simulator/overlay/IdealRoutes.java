package io.riptide.simulator.overlay;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.routing.HopChoice;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.Router;
import io.riptide.dolr.routing.RoutingTable;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The routes the shipped {@link Router} would take if every routing-table slot held the nodes
 * nearest this one that could fill it and every leaf set were exact: the delay penalty proximity
 * neighbour selection can reach at best on this topology and node set. A measured penalty is judged
 * against this, not against 1.0.
 */
public final class IdealRoutes {
    private final SimulatedOverlay overlay;
    private final TransitStubTopology topology;
    private final DolrConfig config;
    private final List<Id> ids = new ArrayList<>();
    private final int[] vertices;

    public IdealRoutes(SimulatedOverlay overlay, TransitStubTopology topology, DolrConfig config) {
        this.overlay = overlay;
        this.topology = topology;
        this.config = config;
        for (int v : overlay.liveVertices()) {
            ids.add(overlay.node(v).self().id());
        }
        Collections.sort(ids);
        vertices = new int[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            vertices[i] = overlay.vertexOf(ids.get(i));
        }
    }

    /** The summed latency of the ideal route from {@code source} to the root of {@code key}, each hop chosen as {@code choice} says. */
    public long pathNanos(int source, Id key, HopChoice choice) {
        long total = 0;
        int at = source;
        for (int hops = 0; hops < 2 * Id.DIGITS; hops++) {
            NodeHandle next = idealRouter(at, key).nextHop(key, id -> false, choice);
            if (next == null) {
                break;
            }
            int to = overlay.vertexOf(next.id());
            total += topology.latencyNanos(at, to);
            at = to;
        }
        return total;
    }

    /** The router of the node at {@code vertex} with an exact leaf set and the ideal slot {@code key} needs. */
    private Router idealRouter(int vertex, Id key) {
        NodeHandle self = overlay.node(vertex).self();
        LeafSet leafSet = new LeafSet(self.id(), config.leafSetHalf());
        int me = Collections.binarySearch(ids, self.id());
        for (int step = 1; step <= config.leafSetHalf() && step < ids.size(); step++) {
            leafSet.add(overlay.node(vertices[Math.floorMod(me + step, ids.size())]).self());
            leafSet.add(overlay.node(vertices[Math.floorMod(me - step, ids.size())]).self());
        }
        RoutingTable table = new RoutingTable(self.id(), config.slotCandidates());
        int digits = self.id().sharedPrefixLength(key) + 1;
        if (digits <= Id.DIGITS) {
            for (int i = lowerBound(key, digits); i < ids.size() && ids.get(i).sharedPrefixLength(key) >= digits; i++) {
                table.offer(overlay.node(vertices[i]).self(), 2 * topology.latencyNanos(vertex, vertices[i]));
            }
        }
        return new Router(self, table, leafSet);
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
