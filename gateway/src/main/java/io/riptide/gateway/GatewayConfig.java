package io.riptide.gateway;

import io.riptide.core.crypto.PublicKey;
import java.time.Duration;
import java.util.Map;

/**
 * A gateway's tunables.
 *
 * @param maxJobs             inserts in progress at once; more are refused as OVERLOADED
 * @param leaseTtl            how long the fetch lease for a URL is held: covers the fetch and a short
 *                            while after, so late requests from other gateways join the result
 * @param recentResults       how long a finished insert's result answers new requests for the same URL
 * @param maxObjectBytes      largest body inserted
 * @param monitorAfterStale   stale reports for one URL (within {@code staleWindow}) that install a monitor
 * @param staleWindow         window for counting stale reports
 * @param minMonitorInterval  fastest a monitor polls its origin
 * @param maxMonitorInterval  slowest a monitor polls its origin
 * @param maxMonitors         monitors kept at once
 * @param publishers          publishers allowed to push, by the host they own
 * @param pushClockSkew       how far a push's timestamp may be from this gateway's clock
 */
public record GatewayConfig(
        int maxJobs,
        Duration leaseTtl,
        Duration recentResults,
        int maxObjectBytes,
        int monitorAfterStale,
        Duration staleWindow,
        Duration minMonitorInterval,
        Duration maxMonitorInterval,
        int maxMonitors,
        Map<String, PublicKey> publishers,
        Duration pushClockSkew) {

    public GatewayConfig {
        publishers = Map.copyOf(publishers);
        if (maxJobs < 1 || maxObjectBytes < 1 || monitorAfterStale < 1 || maxMonitors < 0) {
            throw new IllegalArgumentException("invalid gateway configuration: " + this);
        }
    }

    /** Defaults for a real gateway. */
    public static GatewayConfig defaults() {
        return new GatewayConfig(256, Duration.ofSeconds(15), Duration.ofSeconds(5), 8 * 1024 * 1024, 3,
                Duration.ofMinutes(1), Duration.ofSeconds(5), Duration.ofHours(1), 10_000, Map.of(), Duration.ofMinutes(5));
    }

    /** A copy that accepts pushes from {@code publisher} for URLs on {@code host}. */
    public GatewayConfig withPublisher(String host, PublicKey publisher) {
        Map<String, PublicKey> more = new java.util.HashMap<>(publishers);
        more.put(host.toLowerCase(java.util.Locale.ROOT), publisher);
        return new GatewayConfig(maxJobs, leaseTtl, recentResults, maxObjectBytes, monitorAfterStale, staleWindow,
                minMonitorInterval, maxMonitorInterval, maxMonitors, more, pushClockSkew);
    }

    /** A copy with another stale-report threshold and monitor interval bounds. */
    public GatewayConfig withMonitoring(int afterStale, Duration minInterval, Duration maxInterval) {
        return new GatewayConfig(maxJobs, leaseTtl, recentResults, maxObjectBytes, afterStale, staleWindow,
                minInterval, maxInterval, maxMonitors, publishers, pushClockSkew);
    }
}
