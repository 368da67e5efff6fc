package io.riptide.dolr.server;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.transport.TransportMetrics;

/**
 * A snapshot of one running node, for status lines and tests.
 *
 * @param id the node's ID
 * @param address where it listens
 * @param joined whether it has joined (or started) an overlay
 * @param leafSetSize members of its leaf set
 * @param routingEntries nodes in its routing table, backups included
 * @param knownPeers peers it has heard from or about
 * @param replicas objects it stores
 * @param pointers object pointers it keeps for others
 * @param failuresDetected peers it has declared failed
 * @param departuresHeard peers that announced they were shutting down
 * @param transport its transport's counters
 */
public record NodeStatus(
        Id id,
        NodeAddress address,
        boolean joined,
        int leafSetSize,
        int routingEntries,
        int knownPeers,
        int replicas,
        int pointers,
        long failuresDetected,
        long departuresHeard,
        TransportMetrics transport) {
}
