package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@code riptide cache-manager} says about itself and about arguments it cannot use. */
class CacheManagerCommandTest {
    private final CliRun cli = new CliRun();

    @Test
    void helpExplainsTheOptions() {
        assertEquals(0, cli.run("cache-manager", "--help"));
        for (String expected : new String[] {"--provider", "--port", "--join", "--placement", "LOCAL", "CLIMB", "CLIMB)."}) {
            assertTrue(cli.out().contains(expected), "help mentions '" + expected + "':\n" + cli.out());
        }
    }

    @Test
    void badValuesAreUsageErrors() {
        assertEquals(2, cli.run("cache-manager", "--provider", "ed25519:nope", "--port", "0"));
        assertTrue(cli.err().contains("--provider: not an Ed25519 public key"), cli.err());
        CliRun other = new CliRun();
        assertEquals(2, other.run("cache-manager", "--provider", "ed25519:x", "--port", "0", "--placement", "SOMEWHERE"));
        assertTrue(other.err().contains("--placement"), other.err());
    }
}
