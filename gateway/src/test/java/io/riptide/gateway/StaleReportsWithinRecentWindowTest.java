package io.riptide.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.gateway.origin.OriginFetcherConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stale reports count toward a monitor even when the gateway answers them from a recent result: three
 * proxies that find a URL stale within seconds of one another (the default recent window is 5 s) must
 * install a monitor, as three reports spread out do.
 */
@Timeout(60)
class StaleReportsWithinRecentWindowTest {
    @Test
    void threeStaleReportsAnsweredFromARecentResultStillInstallAMonitor() throws Exception {
        GatewayConfig config = GatewayConfig.defaults().withMonitoring(3, Duration.ofMillis(500), Duration.ofSeconds(2));
        try (GatewayOverlay overlay = new GatewayOverlay(3, 1, config,
                OriginFetcherConfig.defaults().withPrivateOrigins(true).withRate(1000, 1000));
                RawOrigin origin = new RawOrigin(RawOrigin.from(head -> RawOrigin.response(200, "OK", "page",
                        "Cache-Control", "max-age=60")))) {
            String url = origin.url("/hot");
            assertEquals(Outcome.INSERTED, overlay.insert(url, false).outcome());
            int before = overlay.gatewayApps.get(0).monitors().size();
            for (int i = 0; i < 3; i++) {
                InsertReply reply = overlay.insertVia(0, url, true); // within the recent window: answered from it
                assertEquals(Outcome.INSERTED, reply.outcome(), reply.reason());
            }
            assertEquals(1, origin.requests().size(), "every report was answered from the recent result");
            assertEquals(before + 1, overlay.gatewayApps.get(0).monitors().size(), "three stale reports install a monitor");
        }
    }
}
