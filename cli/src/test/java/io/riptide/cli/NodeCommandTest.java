package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@code riptide node} says about itself and about arguments it cannot use, without starting a node. */
class NodeCommandTest {
    private final CliRun cli = new CliRun();

    @Test
    void helpExplainsEveryOptionAndItsDefault() {
        assertEquals(0, cli.run("node", "--help"));
        String help = cli.out();
        for (String expected : new String[] {"--port", "0 picks a free one", "--host", "default: 127.0.0.1", "--join",
            "start a new overlay", "--key", "--status-every", "default: 10s", "Ctrl-C"}) {
            assertTrue(help.contains(expected), "help mentions '" + expected + "':\n" + help);
        }
    }

    @Test
    void theRootHelpListsNode() {
        assertEquals(0, cli.run("--help"));
        assertTrue(cli.out().contains("node"), cli.out());
    }

    @Test
    void aJoinAddressWithoutPortIsAUsageError() {
        assertEquals(2, cli.run("node", "--port", "0", "--join", "localhost"));
        assertTrue(cli.err().contains("--join: expected HOST:PORT, got 'localhost'"), cli.err());
    }

    @Test
    void aJoinPortThatIsNotANumberIsAUsageError() {
        assertEquals(2, cli.run("node", "--port", "0", "--join", "127.0.0.1:http"));
        assertTrue(cli.err().contains("--join: port is not a number in '127.0.0.1:http'"), cli.err());
    }

    @Test
    void aJoinPortOutOfRangeIsAUsageError() {
        assertEquals(2, cli.run("node", "--port", "0", "--join", "127.0.0.1:70000"));
        assertTrue(cli.err().contains("--join: port out of range: 70000"), cli.err());
    }

    @Test
    void aBadStatusPeriodIsAUsageError() {
        assertEquals(2, cli.run("node", "--port", "0", "--status-every", "often"));
        assertTrue(cli.err().contains("expected a duration such as 500ms"), cli.err());
    }

    @Test
    void badStoreOptionsAreUsageErrorsNamingTheOption() {
        assertEquals(2, cli.run("node", "--port", "0", "--store", "/tmp/riptide-never-created", "--disk-gb", "0.01"));
        assertTrue(cli.err().contains("riptide node: --disk-gb must be at least 0.03125 (32 MiB), got 0.01"), cli.err());
        assertEquals(2, cli.run("node", "--port", "0", "--store", "/tmp/riptide-never-created", "--memory-mb", "0"));
        assertTrue(cli.err().contains("riptide node: --memory-mb must be at least 1, got 0"), cli.err());
        assertEquals(2, cli.run("node", "--port", "0", "--store", "/tmp/riptide-never-created", "--store-policy", "btree"));
        assertTrue(cli.err().contains("riptide node: --store-policy must be log or setmem, got 'btree'"), cli.err());
        assertEquals(2, cli.run("node", "--port", "0", "--disk-gb", "5"));
        assertTrue(cli.err().contains("riptide node: --disk-gb configures the disk store: give --store DIR too"), cli.err());
        assertEquals(2, cli.run("node", "--port", "0", "--disk-gb", "lots"));
        assertTrue(cli.err().contains("--disk-gb"), cli.err());
        assertTrue(!java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/riptide-never-created")), "nothing was created");
    }

    @Test
    void badCapsOnUnauthenticatedConnectionsAreUsageErrors() {
        assertEquals(2, cli.run("node", "--port", "0", "--max-unauthenticated-per-source", "0"));
        assertTrue(cli.err().contains("riptide node: --max-unauthenticated-per-source must be at least 1, got 0"), cli.err());
        assertEquals(2, cli.run("node", "--port", "0", "--max-unauthenticated-per-source", "16", "--max-unauthenticated", "8"));
        assertTrue(cli.err().contains("riptide node: --max-unauthenticated must be at least --max-unauthenticated-per-source"
                + " (16), got 8"), cli.err());
    }

    @Test
    void thePortIsRequired() {
        assertEquals(2, cli.run("node"));
        assertTrue(cli.err().contains("--port"), cli.err());
    }

    @Test
    void announcingIsCheckedBeforeTheNodeStartsAndNeverFromLoopbackToTheNetwork() {
        assertEquals(2, cli.run("node", "--port", "0", "--announce"));
        assertTrue(cli.err().contains("--announce: the node listens on 127.0.0.1, which nobody else on the network can reach"),
                cli.err());
        // Only an interface that does not exist: naming a real one would announce on it.
        CliRun missing = new CliRun();
        assertEquals(2, missing.run("cache-manager", "--provider", "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "--port", "0",
                "--mdns-interface", "no-such-if0"));
        assertTrue(missing.err().contains("--announce: no interface named 'no-such-if0'"), missing.err());
    }
}
