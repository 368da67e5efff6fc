package io.riptide.proxy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Cache-Status as RFC 9211 writes it, under whichever name the proxy goes by. */
class CacheStatusTest {
    @Test
    void rendersHitsAndForwardsWithTheirParameters() {
        assertEquals("riptide; hit", CacheStatus.HIT.render("riptide"));
        assertEquals("campus; hit; detail=push", CacheStatus.hit("push").render("campus"));
        assertEquals("campus; fwd=miss; detail=timeout", CacheStatus.forward("miss", "timeout").render("campus"));
        assertEquals("riptide; fwd=stale; fwd-status=503; detail=stale-if-error",
                CacheStatus.forward("stale").withFwdStatus(503).withDetail("stale-if-error").render("riptide"));
    }

    @Test
    void isAHitOrSaysWhyItWentForward() {
        assertThrows(IllegalArgumentException.class, () -> new CacheStatus(true, "miss", 0, null));
        assertThrows(IllegalArgumentException.class, () -> new CacheStatus(false, null, 0, null));
    }
}
