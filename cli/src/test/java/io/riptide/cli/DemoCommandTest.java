package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code riptide demo} brings up a whole small Riptide and shows a page served from the origin, then from the overlay. */
class DemoCommandTest {
    private final CliRun cli = new CliRun();

    @Test
    void theTourShowsAMissThenAnOverlayHitAndPrintsWhatToTry() {
        assertEquals(0, cli.run("demo", "--nodes", "3", "--proxy-port", "0", "--duration", "1s", "--status-every", "500ms"), cli.err());
        String text = cli.out();
        assertTrue(text.contains("first:  200, 375 bytes, Cache-Status: riptide; fwd=miss"), text);
        assertTrue(text.contains("again:  200, 375 bytes, Cache-Status: riptide; hit"), text);
        assertTrue(text.contains("curl -s -o /dev/null -D - -x http://127.0.0.1:"), text);
        assertTrue(text.contains("./riptide inspect http://127.0.0.1:"), text);
        assertTrue(text.contains("status: proxy hits "), text);
        assertTrue(text.trim().endsWith("demo stopped"), text);
    }

    @Test
    void tooManyNodesIsAUsageError() {
        assertEquals(2, cli.run("demo", "--nodes", "99"));
        assertTrue(cli.err().contains("--nodes must be between 1 and 32, got 99"), cli.err());
    }

    @Test
    void theRootHelpListsDemoAndProxy() {
        assertEquals(0, cli.run("--help"));
        assertTrue(cli.out().contains("demo"), cli.out());
        assertTrue(cli.out().contains("proxy"), cli.out());
    }
}
