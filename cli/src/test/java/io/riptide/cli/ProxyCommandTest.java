package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code riptide proxy} says about itself and about arguments it cannot use, without starting a proxy. */
class ProxyCommandTest {
    private final CliRun cli = new CliRun();

    @TempDir
    Path dir;

    @Test
    void helpExplainsEveryOptionAndItsDefault() {
        assertEquals(0, cli.run("proxy", "--help"));
        for (String expected : new String[] {"--port", "default: 3128", "--host", "default: 127.0.0.1", "--seed", "--provider",
            "ed25519:BASE64", "--ttl", "default: 8", "--read-deadline", "default: 3s", "--pass-through", "proxy.pac"}) {
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
        assertEquals(2, cli.run("proxy", "--port", "0", "--read-deadline", "soon"));
        assertTrue(cli.err().contains("Invalid value for option '--read-deadline': expected a duration such as 500ms, 10s, 2m or 1h,"
                + " got 'soon'"), cli.err());
        assertEquals(2, cli.run("proxy", "--port", "0", "--read-deadline", "0ms"));
        assertTrue(cli.err().contains("--read-deadline must be between 1ms and 1m, got 0ms"), cli.err());
        assertEquals(2, cli.run("proxy", "--port", "0", "--read-deadline", "2m"));
        assertTrue(cli.err().contains("--read-deadline must be between 1ms and 1m, got 120s"), cli.err());
    }

    @Test
    void providerIsAListInAConfigFileAndEachKeyIsChecked() throws Exception {
        String key = io.riptide.core.crypto.SigningKey.generate(new java.security.SecureRandom()).publicKey().toString();
        Path f = dir.resolve("proxy.conf");
        Files.write(f, List.of("port = 0", "seed = 127.0.0.1:1", "provider = " + key + ", ed25519:not-a-key"));
        assertEquals(2, cli.run("proxy", "--config", f.toString()));
        assertTrue(cli.err().contains("--provider: not an Ed25519 public key"), "the second key is read and refused: " + cli.err());
        Files.write(f, List.of("port = 0", "seed = 127.0.0.1:1", "provider = " + key, "provider = " + key));
        assertEquals(2, cli.run("proxy", "--config", f.toString()));
        assertTrue(cli.err().contains("--provider: " + key + " is given twice"), cli.err());
    }

    @Test
    void theReadDeadlineIsAConfigKeyCheckedLikeTheOption() throws Exception {
        Path f = dir.resolve("proxy.conf");
        Files.write(f, List.of("port = 0", "read-deadline = 0ms"));
        assertEquals(2, cli.run("proxy", "--config", f.toString()));
        assertTrue(cli.err().contains("riptide proxy: --read-deadline must be between 1ms and 1m, got 0ms (from " + f + ":2)"),
                cli.err());
    }
}
