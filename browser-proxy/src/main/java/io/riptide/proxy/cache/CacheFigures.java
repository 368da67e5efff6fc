package io.riptide.proxy.cache;

import io.riptide.core.object.RejectReason;
import io.riptide.dolr.client.AccessFigures;
import java.util.Map;

/**
 * What the proxy's cache has counted, for the status page and {@code /metrics}: a snapshot taken on
 * the cache's loop.
 *
 * @param lookups          cacheable requests looked up
 * @param hits             answered with a verified copy
 * @param refused          replicas refused by verification, by reason (tampered, forged, replayed, malformed)
 * @param overloaded       lookups sent to the origin because the verify stage was full
 * @param missHints        miss hints sent
 * @param staleHints       stale hints sent
 * @param latencyHints     latency hints sent (hits slower than the threshold)
 * @param loadReports      load reports sent
 * @param requestsReported the requests those reports counted
 * @param memory           the memory tier's figures, or null without one
 * @param memoryRefreshes  background overlay reads that kept memory copies current (not counted in lookups)
 * @param signaturesFull   Ed25519 verifications done in full (certificates, heartbeats, variant records)
 * @param signaturesMemo   signatures found already verified (a version this proxy checked before): no Ed25519
 * @param seenHints        seen hints sent (a variant's first sighting under the second-sight insert policy)
 * @param keptPrivately    responses the proxy fetched itself and kept in its private tier
 * @param overlayReads     overlay reads started (lookups, variant reads and memory rechecks)
 * @param readsShared      lookups that joined a read of the same GUID already in flight instead of starting one
 * @param access           the overlay client's hedged and re-sent reads and its access nodes lost and down
 * @param gatewayAnswers   misses sent to the gateway to fetch for the request (the through-gateway insert policies),
 *                         by its answer; {@code UNREACHABLE}: none came in time
 * @param firstSightings   misses the stub's manager called a variant's first sighting (fetched here and kept)
 * @param repeatSightings  misses the stub's manager had seen before (sent to the gateway to fetch)
 * @param sightingsUnanswered sightings asked of the stub's manager that no manager answered in time
 * @param gatewayCopies    misses the gateway answered with the signed copy in its reply, served without a read back
 * @param gatewayReadsFailed misses the gateway said it inserted whose copy (sent or read back) could not be served,
 *                         so the proxy fetched them itself: a second origin fetch
 * @param keys             provider keys: learned by rotation, revoked, key records refused, lookups that met a revocation
 */
public record CacheFigures(long lookups, long hits, Map<RejectReason, Long> refused, long overloaded, long missHints,
        long staleHints, long latencyHints, long loadReports, long requestsReported, MemoryFigures memory,
        long memoryRefreshes, long signaturesFull, long signaturesMemo, long seenHints, long keptPrivately,
        long overlayReads, long readsShared, AccessFigures access,
        Map<io.riptide.core.gateway.GatewayMessages.Outcome, Long> gatewayAnswers, long firstSightings, long repeatSightings,
        long sightingsUnanswered, long gatewayCopies, long gatewayReadsFailed, KeyFigures keys) {
    /**
     * What the proxy knows of its providers' keys.
     *
     * @param learned        keys trusted because a trusted key certified them (rotation)
     * @param revoked        keys revoked (their objects are refused, memory copies never served)
     * @param recordsRefused rotation and revocation records refused: forged, or signed by a key without standing
     * @param revokedLookups lookups that met a revocation or a copy signed by a revoked key, and went to the origin
     */
    public record KeyFigures(int learned, int revoked, long recordsRefused, long revokedLookups) {
    }

    public CacheFigures {
        refused = Map.copyOf(refused);
        gatewayAnswers = Map.copyOf(gatewayAnswers);
    }

    /** Replicas refused, for every reason. */
    public long refusedTotal() {
        return refused.values().stream().mapToLong(Long::longValue).sum();
    }
}
