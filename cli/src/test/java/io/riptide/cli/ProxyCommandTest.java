package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What {@code riptide proxy} says about itself and about arguments it cannot use, without starting a proxy. */
class ProxyCommandTest {
    private final CliRun cli = new CliRun();

    @Test
    void helpExplainsEveryOptionAndItsDefault() {
        assertEquals(0, cli.run("proxy", "--help"));
        for (String expected : new String[] {"--port", "default: 3128", "--host", "default: 127.0.0.1", "--seed", "--provider",
            "ed25519:BASE64", "--ttl", "default: 8", "--pass-through", "proxy.pac"}) {
            assertTrue(cli.out().contains(expected), "help mentions '" + expected + "':\n" + cli.out());
        }
    }

    @Test
    void seedsWithoutAProviderAreAUsageError() {
        assertEquals(2, cli.run("proxy", "--port", "0", "--seed", "127.0.0.1:1"));
        assertTrue(cli.err().contains("--seed needs --provider: whose objects should the proxy trust?"), cli.err());
    }

    @Test
    void badValuesAreUsageErrors() {
        assertEquals(2, cli.run("proxy", "--port", "0", "--seed", "nowhere"));
        assertTrue(cli.err().contains("--seed: expected HOST:PORT, got 'nowhere'"), cli.err());
        assertEquals(2, cli.run("proxy", "--port", "0", "--ttl", "0"));
        assertTrue(cli.err().contains("--ttl must be between 1 and 64, got 0"), cli.err());
        assertEquals(2, cli.run("proxy", "--port", "0", "--provider", "ed25519:not-a-key", "--seed", "127.0.0.1:1"));
        assertTrue(cli.err().contains("--provider: not an Ed25519 public key"), cli.err());
    }

    @Test
    void discoveryOptionsAreCheckedBeforeAnythingIsSent() {
        assertEquals(0, cli.run("proxy", "--help"));
        for (String expected : new String[] {"--[no-]discover", "--mdns-interface", "--trust-announced-provider"}) {
            assertTrue(cli.out().contains(expected), "help mentions '" + expected + "':\n" + cli.out());
        }
        CliRun trust = new CliRun();
        assertEquals(2, trust.run("proxy", "--port", "0", "--trust-announced-provider"));
        assertTrue(trust.err().contains("--trust-announced-provider needs --discover or --mdns-interface"), trust.err());
        // Only an interface that does not exist: naming a real one would start browsing on it.
        CliRun missing = new CliRun();
        assertEquals(2, missing.run("proxy", "--port", "0", "--mdns-interface", "no-such-if0"));
        assertTrue(missing.err().contains("--discover: no interface named 'no-such-if0'"), missing.err());
    }
}
