package io.riptide.cachemanager.hot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sliding-window rates: counted, then forgotten as the window passes. */
class RequestRatesTest {
    private static final long S = 1_000_000_000L;

    @Test
    void ratesFollowTheWindow() {
        RequestRates<Id> rates = new RequestRates<>(Duration.ofSeconds(10), 100);
        Id a = Id.hash("a");
        for (int s = 0; s < 10; s++) {
            rates.record(a, 20, s * S);
        }
        assertEquals(20.0, rates.perSecond(a, 9 * S), 1e-9);
        assertEquals(List.of(a), rates.active(9 * S));
        assertEquals(0.0, rates.perSecond(a, 30 * S), 1e-9);
        assertEquals(List.of(), rates.active(30 * S));
    }

    @Test
    void theLeastRecentlyRequestedAreForgottenFirst() {
        RequestRates<Id> rates = new RequestRates<>(Duration.ofSeconds(10), 2);
        rates.record(Id.hash("a"), 1, 0);
        rates.record(Id.hash("b"), 1, 0);
        rates.record(Id.hash("c"), 1, 0);
        assertEquals(0.0, rates.perSecond(Id.hash("a"), 0), 1e-9);
        assertEquals(0.1, rates.perSecond(Id.hash("c"), 0), 1e-9);
    }
}
