package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.Cidr;
import io.riptide.proxy.DestinationPolicy;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyMain;
import io.riptide.simulator.scenario.Scenarios;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** What {@code riptide proxy} says about itself and about arguments it cannot use, without starting a proxy. */
class ProxyCommandTest {
    private static final String N = System.lineSeparator();

    private final CliRun cli = new CliRun();

    @TempDir
    Path dir;

    @Test
    void helpExplainsEveryOptionAndItsDefault() {
        assertEquals(0, cli.run("proxy", "--help"));
        // Read as flowing text: where picocli wraps a description depends on the widest option name.
        String help = cli.out().replaceAll("\\s+", " ");
        for (String expected : new String[] {"--port", "default: 3128", "--host", "default: 127.0.0.1", "--seed", "--provider",
            "ed25519:BASE64", "--ttl", "default: 8", "--read-deadline", "default: 3s", "--allow-from", "default: 127.0.0.0/8 and ::1",
            "--request-head-timeout", "default: 10s", "--max-connections", "open-file limit", "--max-connections-per-client",
            "default: 256", "--pass-through", "proxy.pac", "--destinations", "default: auto", "--allow-destination"}) {
            assertTrue(help.contains(expected), "help mentions '" + expected + "':\n" + cli.out());
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

    @Test
    void theHeadDeadlineAndConnectionCapsAreConfigKeysAndTheCommandLineWins() throws Exception {
        Path f = dir.resolve("proxy.conf");
        Files.write(f, List.of("port = 0", "request-head-timeout = 20s", "max-connections = 500", "max-connections-per-client = 32"));
        ProxyConfig fromFile = parsed("--config", f.toString());
        assertEquals(java.time.Duration.ofSeconds(20), fromFile.requestHeadTimeout());
        assertEquals(500, fromFile.maxConnections());
        assertEquals(32, fromFile.maxConnectionsPerClient());
        assertEquals(64, parsed("--config", f.toString(), "--max-connections-per-client", "64").maxConnectionsPerClient());
        Files.write(f, List.of("port = 0", "request-head-timeout = 0ms"));
        assertEquals(2, cli.run("proxy", "--config", f.toString()));
        assertTrue(cli.err().contains("riptide proxy: --request-head-timeout must be between 100ms and 10m, got 0ms (from " + f + ":2)"),
                cli.err());
    }

    @Test
    void badNetworksAreUsageErrorsNamingTheValue() {
        String[][] cases = {
            {"10.0.0.1/8", "'10.0.0.1/8' has bits set past its /8 prefix; did you mean 10.0.0.0/8?"},
            {"10.0.0.0/33", "'10.0.0.0/33': the prefix of an IPv4 network is at most /32"},
            {"campus", "expected a network as ADDRESS/PREFIX (10.0.0.0/8, 2001:db8::/32) or one address, got 'campus'"},
            {"10.0.0.0/8,192.168.0.0/16", "one network per --allow-from, repeated for more (--allow-from 10.0.0.0/8 --allow-from "
                + "192.168.0.0/16), got '10.0.0.0/8,192.168.0.0/16'"}};
        for (String[] c : cases) {
            CliRun run = new CliRun();
            assertEquals(2, run.run("proxy", "--port", "0", "--allow-from", "127.0.0.1", "--allow-from", c[0]), c[0]);
            assertEquals("riptide proxy: Invalid value for option '--allow-from' (CIDR): " + c[1] + N
                    + "Try 'riptide proxy --help' for the options and their defaults." + N, run.err());
            assertEquals("", run.out(), "nothing started");
        }
    }

    @Test
    void theDestinationRuleAndItsAllowedNetworksAreOptionsAndConfigKeys() throws Exception {
        assertEquals(new DestinationPolicy(DestinationPolicy.Mode.AUTO, List.of()), parsed("--port", "0").destinations());
        assertEquals(new DestinationPolicy(DestinationPolicy.Mode.PUBLIC, List.of(Cidr.parse("10.1.0.0/16"))),
                parsed("--destinations", "public", "--allow-destination", "10.1.0.0/16").destinations());
        Path f = dir.resolve("proxy.conf");
        Files.write(f, List.of("port = 0", "destinations = any", "allow-destination = 10.1.0.0/16, 192.168.7.0/24"));
        assertEquals(new DestinationPolicy(DestinationPolicy.Mode.ANY, List.of(Cidr.parse("10.1.0.0/16"), Cidr.parse("192.168.7.0/24"))),
                parsed("--config", f.toString()).destinations());
        CliRun run = new CliRun();
        assertEquals(2, run.run("proxy", "--port", "0", "--destinations", "public-only"));
        assertEquals("riptide proxy: Invalid value for option '--destinations': expected auto, public or any as the "
                + "destination rule, got 'public-only'" + N + "Try 'riptide proxy --help' for the options and their defaults." + N,
                run.err());
        assertEquals("", run.out(), "nothing started");
    }

    @Test
    void allowFromIsRepeatableAndDefaultsToLoopback() {
        assertEquals(Cidr.LOOPBACK, parsed("--port", "0").allowFrom());
        assertEquals(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("2001:db8::/32")),
                parsed("--allow-from", "10.0.0.0/8", "--allow-from", "2001:db8::/32").allowFrom());
    }

    @Test
    void allowFromIsAConfigKeyTakingAListAndTheCommandLineWins() throws Exception {
        Path f = dir.resolve("proxy.conf");
        Files.write(f, List.of("port = 0", "allow-from = 10.0.0.0/8, 192.168.0.0/16", "allow-from = fd00::/8"));
        assertEquals(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("192.168.0.0/16"), Cidr.parse("fd00::/8")),
                parsed("--config", f.toString()).allowFrom());
        assertEquals(List.of(Cidr.parse("127.0.0.2")), parsed("--config", f.toString(), "--allow-from", "127.0.0.2").allowFrom());
    }

    @Test
    void aBadNetworkInAConfigFileIsNamedWithItsLine() throws Exception {
        Path f = dir.resolve("proxy.conf");
        Files.write(f, List.of("port = 0", "allow-from = 10.0.0.0/8", "allow-from = 192.168.0.0/16, the campus"));
        assertEquals(2, cli.run("proxy", "--config", f.toString()));
        assertEquals("riptide proxy: 1 error in " + f + " (nothing was started):" + N
                + f + ":3: Invalid value for option '--allow-from' (CIDR): expected a network as ADDRESS/PREFIX (10.0.0.0/8, 2001:db8::/32) "
                + "or one address, got 'the campus'" + N
                + "Try 'riptide proxy --help' for the options and their defaults." + N, cli.err());
    }

    private static ProxyConfig parsed(String... args) {
        CommandLine root = Riptide.commandLine(Scenarios.builtIn(), false);
        String[] all = new String[args.length + 1];
        all[0] = "proxy";
        System.arraycopy(args, 0, all, 1, args.length);
        root.parseArgs(all);
        return ((ProxyMain) root.getSubcommands().get("proxy").getCommand()).proxyConfig();
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
