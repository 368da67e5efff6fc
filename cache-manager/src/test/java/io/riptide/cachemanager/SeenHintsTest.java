package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Seen hints (a proxy fetched a variant itself and keeps it privately) cost the origin nothing at the
 * first sighting; the second within the sight window, from any proxy of the stub, has the gateway
 * insert the variant, once; another variant's sighting is its own first. In simulation, with a real
 * gateway behind the manager.
 */
class SeenHintsTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;

    @Test
    void theSecondSightingWithinTheWindowInsertsAndTheFirstDoesNot() {
        CacheManagerConfig config = CacheManagerConfig.defaults();
        Stub stub = new Stub(11, NODES, GROUPS, GATEWAY, false, config, MANAGER);
        String url = "http://example.com/seen";
        Id base = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        stub.hint(6, new SeenHint(url, base, Headers.of("Accept-Language", "en")));
        stub.run(Duration.ofSeconds(2));
        assertEquals(0, stub.manager(MANAGER).gateway().sent(), "one sighting asks for nothing");

        stub.hint(12, new SeenHint(url, base, Headers.of("Accept-Language", "fr")));
        stub.run(Duration.ofSeconds(2));
        assertEquals(0, stub.manager(MANAGER).gateway().sent(), "another variant's first sighting asks for nothing either");

        stub.hint(18, new SeenHint(url, base, Headers.of("accept-language", "EN")));
        stub.run(Duration.ofSeconds(2));
        assertEquals(1, stub.manager(MANAGER).gateway().sent(), "the same variant seen by another proxy: one insert");

        stub.hint(24, new SeenHint(url, base, Headers.of("Accept-Language", "en")));
        stub.run(Duration.ofSeconds(2));
        assertEquals(1, stub.manager(MANAGER).gateway().sent(), "a third sighting within the miss window buys no second insert");
        assertEquals(2, stub.manager(MANAGER).inserts().firstSightings());
    }
}
