package io.riptide.cachemanager;

import io.riptide.cachemanager.replicas.PlacementPolicy;
import java.time.Duration;

/**
 * A cache manager's tunables.
 *
 * @param missWindow      miss hints for one URL within this window cause one insert request
 * @param staleWindow     stale hints for one URL within this window cause one re-check; longer than the
 *                        gateway's recent-results window, so each re-check counts toward its monitor
 * @param placement       where a slow hit's replica goes: on this node, or up the object's tree
 * @param climb           hops to climb for {@link PlacementPolicy#CLIMB} (0: one, the paper's example); never as far as
 *                        where the slow read found its copy
 * @param slowHops        a latency hint with at least this many hops is slow
 * @param slowMicros      ... or with at least this latency
 * @param placeWindow     one slow-hit placement per object within this window
 * @param rateWindow      request rates are counted over this sliding window
 * @param loadPerReplica  requests per second one replica should serve at most; above it, more replicas
 * @param maxHotReplicas  most extra replicas of one hot object this manager keeps (never more than the sources of its load)
 * @param hotCheck        how often rates are compared with replica counts
 * @param requestDeadline how long an insert request or replication may take
 * @param maxTracked      most URLs and objects remembered at once (bounds memory under hint floods)
 * @param sightWindow     a variant that proxies report fetching themselves ({@code SeenHint}) twice within this window
 *                        is inserted: a day, as a CDN's cache-on-second-hit rule counts one-hit wonders
 * @param copyInserts     once a gateway has inserted (or confirmed) what this manager asked for, copy it to this
 *                        manager's own node: the stub that missed it holds it for its next request, as a CDN's edge
 *                        fills on a miss, instead of every later read crossing the wide area to the gateway's copy
 * @param campusCentre    also copy what the campus reads to the node its readers are nearest on average, when that
 *                        is not this manager's own node ({@code replicas.CampusCentre})
 */
public record CacheManagerConfig(
        Duration missWindow,
        Duration staleWindow,
        PlacementPolicy placement,
        int climb,
        int slowHops,
        long slowMicros,
        Duration placeWindow,
        Duration rateWindow,
        double loadPerReplica,
        int maxHotReplicas,
        Duration hotCheck,
        Duration requestDeadline,
        int maxTracked,
        Duration sightWindow,
        boolean copyInserts,
        boolean campusCentre) {
    /** Sightings count toward an insert for a day: a page revisited daily is worth a copy, a one-hit wonder is not. */
    public static final Duration DEFAULT_SIGHT_WINDOW = Duration.ofDays(1);

    public CacheManagerConfig {
        if (climb < 0 || slowHops < 1 || slowMicros < 0 || !(loadPerReplica > 0) || maxHotReplicas < 0 || maxTracked < 1
                || rateWindow.isZero() || rateWindow.isNegative() || hotCheck.isZero() || hotCheck.isNegative()
                || sightWindow == null || sightWindow.isZero() || sightWindow.isNegative()) {
            throw new IllegalArgumentException("invalid cache manager configuration: " + this);
        }
    }

    /** Defaults for a real stub. */
    public static CacheManagerConfig defaults() {
        return new CacheManagerConfig(Duration.ofSeconds(10), Duration.ofSeconds(10), PlacementPolicy.CLIMB, 0, 2, 50_000,
                Duration.ofSeconds(30), Duration.ofSeconds(10), 5.0, 8, Duration.ofSeconds(2), Duration.ofSeconds(10), 10_000,
                DEFAULT_SIGHT_WINDOW, true, true);
    }

    /** A copy with another slow-hit placement policy and climb (0: one hop). */
    public CacheManagerConfig withPlacement(PlacementPolicy policy, int climbHops) {
        return new CacheManagerConfig(missWindow, staleWindow, policy, climbHops, slowHops, slowMicros, placeWindow, rateWindow,
                loadPerReplica, maxHotReplicas, hotCheck, requestDeadline, maxTracked, sightWindow, copyInserts, campusCentre);
    }

    /** A copy with another hot-object bound and replica cap. */
    public CacheManagerConfig withHotObjects(double perReplica, int maxReplicas) {
        return new CacheManagerConfig(missWindow, staleWindow, placement, climb, slowHops, slowMicros, placeWindow, rateWindow,
                perReplica, maxReplicas, hotCheck, requestDeadline, maxTracked, sightWindow, copyInserts, campusCentre);
    }

    /** A copy that does (or does not) copy what it had inserted to its own node. */
    public CacheManagerConfig withCopyInserts(boolean copy) {
        return new CacheManagerConfig(missWindow, staleWindow, placement, climb, slowHops, slowMicros, placeWindow, rateWindow,
                loadPerReplica, maxHotReplicas, hotCheck, requestDeadline, maxTracked, sightWindow, copy, campusCentre);
    }

    /** A copy that does (or does not) copy what the campus reads to the node its readers are nearest. */
    public CacheManagerConfig withCampusCentre(boolean centre) {
        return new CacheManagerConfig(missWindow, staleWindow, placement, climb, slowHops, slowMicros, placeWindow, rateWindow,
                loadPerReplica, maxHotReplicas, hotCheck, requestDeadline, maxTracked, sightWindow, copyInserts, centre);
    }
}
