package io.riptide.dolr;

import io.riptide.dolr.location.SaltedRoots;
import io.riptide.dolr.secure.SourceLimits;
import java.time.Duration;

/**
 * Every tunable of an overlay node: sizes of its routing state, timer periods, timeouts and
 * bounds. {@link #defaults()} suits real deployments; the simulator uses the same values unless a
 * scenario says otherwise.
 *
 * @param leafSetHalf        leaf-set members kept on each side of the node's ID
 * @param slotCandidates     candidates kept per routing-table slot: the lowest-RTT one routes, the rest are backups
 * @param localNeighbours    nearest nodes (by RTT) whose Bloom filters this node consults
 * @param heartbeatInterval  how often leaf-set members exchange leaf sets (doubles as keep-alive)
 * @param failAfter          silence after which a leaf-set member is declared failed
 * @param tableCheckInterval how often routing-table entries not heard from are pinged (the lease)
 * @param maintenanceInterval how often the node asks a neighbour for a routing-table row or its
 *                           neighbours, to find closer candidates (proximity neighbour selection)
 * @param hopTimeoutFloor    least time to wait for a hop's acknowledgement before routing around the hop
 * @param hopRetries         alternative next hops tried before a routed message is given up
 * @param pointerTtl         lifetime of an object pointer unless refreshed
 * @param republishInterval  how often replicas re-publish their pointers
 * @param pointerReplicas    leaf-set neighbours on each side of a root that keep copies of its pointers
 * @param bloomEnabled       consult attenuated Bloom filters before deterministic location
 * @param bloomLevels        depth of the attenuated Bloom filters (level 0 is the node itself)
 * @param bloomBits          bits per Bloom filter level
 * @param bloomHashes        hash functions per Bloom filter
 * @param bloomRefresh       how often filters are pulled from local neighbours (stale bits age out then)
 * @param locateDeadline     how long a requester waits for a located object before failing
 * @param defaultTtl         default hop budget of a locate
 * @param maxReplicaBytes    bound of the per-node replica store, in bytes
 * @param maxReplicas        bound of the per-node replica store, in objects
 * @param maxPointers        bound of the pointers one node keeps for others
 * @param maxProbesInFlight  RTT probes outstanding at once
 * @param maxProbeQueue      RTT probes waiting; further candidates are dropped
 * @param joinTimeout        how long to wait for the root's answer before retrying a join
 * @param sourceLimits       most node IDs from one source address (prefix) in the routing table and
 *                           leaf set together: a bound on what one machine's free keys can take
 * @param saltedRoots        further roots of each GUID that publishes also reach, and where access nodes
 *                           read verified when a read fails or lies (0: none; an overlay that admits
 *                           untrusted nodes sets it, every node the same)
 */
public record DolrConfig(
        int leafSetHalf,
        int slotCandidates,
        int localNeighbours,
        Duration heartbeatInterval,
        Duration failAfter,
        Duration tableCheckInterval,
        Duration maintenanceInterval,
        Duration hopTimeoutFloor,
        int hopRetries,
        Duration pointerTtl,
        Duration republishInterval,
        int pointerReplicas,
        boolean bloomEnabled,
        int bloomLevels,
        int bloomBits,
        int bloomHashes,
        Duration bloomRefresh,
        Duration locateDeadline,
        int defaultTtl,
        long maxReplicaBytes,
        int maxReplicas,
        int maxPointers,
        int maxProbesInFlight,
        int maxProbeQueue,
        Duration joinTimeout,
        SourceLimits sourceLimits,
        int saltedRoots) {

    public DolrConfig {
        if (leafSetHalf < 1 || slotCandidates < 1 || localNeighbours < 0 || bloomLevels < 1
                || bloomBits < 64 || bloomBits % 64 != 0 || bloomHashes < 1 || hopRetries < 0
                || maxReplicas < 1 || maxPointers < 1 || maxProbesInFlight < 1 || defaultTtl < 1 || sourceLimits == null
                || saltedRoots < 0 || saltedRoots > SaltedRoots.MAX) {
            throw new IllegalArgumentException("invalid overlay configuration: " + this);
        }
    }

    /** Defaults for a real deployment. */
    public static DolrConfig defaults() {
        return new DolrConfig(
                8, 3, 16,
                Duration.ofSeconds(2), Duration.ofSeconds(7), Duration.ofSeconds(10), Duration.ofSeconds(10),
                Duration.ofMillis(400), 3,
                Duration.ofSeconds(180), Duration.ofSeconds(60), 2,
                true, 4, 2048, 4, Duration.ofSeconds(10),
                Duration.ofSeconds(3), 16,
                256L * 1024 * 1024, 100_000, 1_000_000,
                32, 1024,
                Duration.ofSeconds(5), SourceLimits.defaults(), 0);
    }

    /** A copy with Bloom filters switched on or off. */
    public DolrConfig withBloom(boolean enabled) {
        return new DolrConfig(leafSetHalf, slotCandidates, localNeighbours, heartbeatInterval, failAfter,
                tableCheckInterval, maintenanceInterval, hopTimeoutFloor, hopRetries, pointerTtl,
                republishInterval, pointerReplicas, enabled, bloomLevels, bloomBits, bloomHashes, bloomRefresh,
                locateDeadline, defaultTtl, maxReplicaBytes, maxReplicas, maxPointers, maxProbesInFlight,
                maxProbeQueue, joinTimeout, sourceLimits, saltedRoots);
    }

    /** A copy with another bound on the per-node replica store. */
    public DolrConfig withStore(long replicaBytes, int replicas) {
        return new DolrConfig(leafSetHalf, slotCandidates, localNeighbours, heartbeatInterval, failAfter,
                tableCheckInterval, maintenanceInterval, hopTimeoutFloor, hopRetries, pointerTtl,
                republishInterval, pointerReplicas, bloomEnabled, bloomLevels, bloomBits, bloomHashes, bloomRefresh,
                locateDeadline, defaultTtl, replicaBytes, replicas, maxPointers, maxProbesInFlight,
                maxProbeQueue, joinTimeout, sourceLimits, saltedRoots);
    }

    /**
     * A copy with another least hop timeout and locate deadline: for machines whose event loops can
     * stall longer than the default floor (a loaded test machine), where a slow live hop would
     * otherwise be routed around as if it had failed.
     */
    public DolrConfig withTimeouts(Duration hopFloor, Duration deadline) {
        return new DolrConfig(leafSetHalf, slotCandidates, localNeighbours, heartbeatInterval, failAfter,
                tableCheckInterval, maintenanceInterval, hopFloor, hopRetries, pointerTtl,
                republishInterval, pointerReplicas, bloomEnabled, bloomLevels, bloomBits, bloomHashes, bloomRefresh,
                deadline, defaultTtl, maxReplicaBytes, maxReplicas, maxPointers, maxProbesInFlight,
                maxProbeQueue, joinTimeout, sourceLimits, saltedRoots);
    }

    /** A copy with other maintenance periods (heartbeat, failure detection, table lease, proximity gossip). */
    public DolrConfig withMaintenance(Duration heartbeat, Duration fail, Duration tableCheck, Duration maintenance) {
        return new DolrConfig(leafSetHalf, slotCandidates, localNeighbours, heartbeat, fail,
                tableCheck, maintenance, hopTimeoutFloor, hopRetries, pointerTtl,
                republishInterval, pointerReplicas, bloomEnabled, bloomLevels, bloomBits, bloomHashes, bloomRefresh,
                locateDeadline, defaultTtl, maxReplicaBytes, maxReplicas, maxPointers, maxProbesInFlight,
                maxProbeQueue, joinTimeout, sourceLimits, saltedRoots);
    }

    /** A copy with other limits on node IDs from one source address in the routing state. */
    public DolrConfig withSourceLimits(SourceLimits limits) {
        return new DolrConfig(leafSetHalf, slotCandidates, localNeighbours, heartbeatInterval, failAfter,
                tableCheckInterval, maintenanceInterval, hopTimeoutFloor, hopRetries, pointerTtl,
                republishInterval, pointerReplicas, bloomEnabled, bloomLevels, bloomBits, bloomHashes, bloomRefresh,
                locateDeadline, defaultTtl, maxReplicaBytes, maxReplicas, maxPointers, maxProbesInFlight,
                maxProbeQueue, joinTimeout, limits, saltedRoots);
    }

    /**
     * A copy whose nodes publish to {@code roots} salted roots of each GUID besides its own, and whose
     * access nodes read verified (redundantly when the plain read fails, is late or lies).
     */
    public DolrConfig withSaltedRoots(int roots) {
        return new DolrConfig(leafSetHalf, slotCandidates, localNeighbours, heartbeatInterval, failAfter,
                tableCheckInterval, maintenanceInterval, hopTimeoutFloor, hopRetries, pointerTtl,
                republishInterval, pointerReplicas, bloomEnabled, bloomLevels, bloomBits, bloomHashes, bloomRefresh,
                locateDeadline, defaultTtl, maxReplicaBytes, maxReplicas, maxPointers, maxProbesInFlight,
                maxProbeQueue, joinTimeout, sourceLimits, roots);
    }
}
