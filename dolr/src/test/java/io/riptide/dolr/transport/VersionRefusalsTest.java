package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Every refusal for the versions is counted; a peer that keeps trying gets one WARN a minute. */
class VersionRefusalsTest {
    @Test
    void everyRefusalCountsAndAtMostOneAMinuteIsLoggedAtWarn() {
        TransportCounters counters = new TransportCounters();
        AtomicLong now = new AtomicLong(5_000_000_000L);
        VersionRefusals refusals = new VersionRefusals(counters, now::get);
        InetSocketAddress peer = new InetSocketAddress("127.0.0.1", 7101);
        WireVersions ours = WireVersions.only(9);

        assertTrue(refusals.refused(peer, ours, VersionOffer.LEGACY), "the first one warns");
        now.addAndGet(VersionRefusals.WARN_EVERY_NANOS - 1);
        assertFalse(refusals.refused(peer, ours, VersionOffer.LEGACY), "within the minute: DEBUG");
        now.addAndGet(1);
        assertTrue(refusals.refused(peer, ours, VersionOffer.LEGACY), "a minute on: WARN again");
        assertEquals(3, counters.snapshot(0, 0).handshakesVersionRefused());
    }
}
