package io.riptide.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Squid starts from its minimal config, relays without caching, and is gone after close; a missing Squid fails. */
@Timeout(60)
class SquidProxyTest {
    @Test
    void theConfigKeepsSquidOnLoopbackWithoutACacheAndItsFilesInItsDirectory() {
        String conf = SquidProxy.config(Path.of("/tmp/x"), 3999);
        for (String line : List.of("http_port 127.0.0.1:3999", "cache deny all", "http_access deny all",
                "pid_filename /tmp/x/squid.pid", "cache_log /tmp/x/cache.log", "coredump_dir /tmp/x", "shutdown_lifetime 0 seconds")) {
            assertTrue(conf.contains(line + "\n"), line + " in\n" + conf);
        }
        assertFalse(conf.contains("cache_dir"), conf);
    }

    @Test
    void relaysEveryRequestToTheOriginAndStopsOnClose() throws Exception {
        InetSocketAddress address;
        try (LoopbackOrigin origin = LoopbackOrigin.start(List.of(1024), 1); SquidProxy squid = SquidRequired.proxy()) {
            address = squid.start();
            try (HttpConnection c = HttpConnection.open(address, Duration.ofSeconds(10))) {
                for (int i = 0; i < 3; i++) {
                    HttpResponse r = c.get("http://" + origin.authority() + LoopbackOrigin.path(1024), origin.authority());
                    assertEquals(200, r.status(), r.head());
                    assertEquals(1024, r.body().length);
                }
            }
            // Cache off: the origin answered all three even though the object says max-age=3600.
            assertEquals(3, origin.requests());
        }
        assertThrows(IOException.class, () -> HttpConnection.open(address, Duration.ofSeconds(1)).close());
    }

    @Test
    void aMissingSquidFailsTheTestUnlessTheOptOutIsSet() {
        assertTrue(SquidRequired.check(Optional.of(Path.of("/usr/sbin/squid")), null));
        AssertionError e = assertThrows(AssertionError.class, () -> SquidRequired.check(Optional.empty(), null));
        assertTrue(e.getMessage().contains("RIPTIDE_NO_SQUID=1"), e.getMessage());
        assertThrows(AssertionError.class, () -> SquidRequired.check(Optional.empty(), "0"));
        assertFalse(SquidRequired.check(Optional.empty(), "1"));
    }
}
