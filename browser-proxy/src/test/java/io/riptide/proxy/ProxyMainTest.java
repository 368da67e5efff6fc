package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The standalone jar's command line (no cli module, no --config) takes --allow-from, the request-head deadline and the
 * connection caps as {@code riptide proxy} does.
 */
class ProxyMainTest {
    @Test
    void allowFromReachesTheProxysConfiguration() {
        ProxyMain main = new ProxyMain();
        new CommandLine(main).parseArgs("--allow-from", "192.168.0.0/16", "--allow-from", "fd00::/8");
        assertEquals(List.of(Cidr.parse("192.168.0.0/16"), Cidr.parse("fd00::/8")), main.proxyConfig().allowFrom());
        ProxyMain plain = new ProxyMain();
        new CommandLine(plain).parseArgs();
        assertEquals(Cidr.LOOPBACK, plain.proxyConfig().allowFrom());
    }

    @Test
    void aBadNetworkIsAUsageErrorNamingIt() {
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new ProxyMain());
        cl.setErr(new PrintWriter(err, true));
        assertEquals(2, cl.execute("--port", "0", "--allow-from", "192.168.1.0/16"));
        assertTrue(err.toString().startsWith("Invalid value for option '--allow-from' (CIDR): '192.168.1.0/16' has bits set past its "
                + "/16 prefix; did you mean 192.168.0.0/16?"), err.toString());
    }

    @Test
    void theHeadDeadlineAndTheConnectionCapsReachTheProxysConfiguration() {
        ProxyMain plain = new ProxyMain();
        new CommandLine(plain).parseArgs();
        assertEquals(Duration.ofSeconds(10), plain.proxyConfig().requestHeadTimeout());
        assertEquals(ProxyConfig.defaultMaxConnections(), plain.proxyConfig().maxConnections());
        assertEquals(256, plain.proxyConfig().maxConnectionsPerClient());
        ProxyMain set = new ProxyMain();
        new CommandLine(set).parseArgs("--request-head-timeout", "20s", "--max-connections", "500", "--max-connections-per-client", "32");
        assertEquals(Duration.ofSeconds(20), set.proxyConfig().requestHeadTimeout());
        assertEquals(500, set.proxyConfig().maxConnections());
        assertEquals(32, set.proxyConfig().maxConnectionsPerClient());
    }

    @Test
    void outOfRangeDeadlinesAndCapsAreUsageErrors() {
        String[][] cases = {
            {"--request-head-timeout", "50ms", "--request-head-timeout must be between 100ms and 10m, got 50ms"},
            {"--request-head-timeout", "1h", "--request-head-timeout must be between 100ms and 10m, got 3600s"},
            {"--max-connections", "0", "--max-connections must be between 1 and 1000000, got 0"},
            {"--max-connections-per-client", "0", "--max-connections-per-client must be between 1 and 1000000, got 0"}};
        for (String[] c : cases) {
            StringWriter err = new StringWriter();
            CommandLine cl = new CommandLine(new ProxyMain());
            cl.setErr(new PrintWriter(err, true));
            assertEquals(2, cl.execute("--port", "0", c[0], c[1]), c[0] + " " + c[1]);
            assertTrue(err.toString().startsWith(c[2]), err.toString());
        }
    }

    @Test
    void theDefaultConnectionCapFollowsTheDescriptorLimit() {
        // (limit - reserve) / 2, the reserve a quarter of the limit up to 256; at most 10,000; 10,000 when unknown.
        assertEquals(150, ProxyConfig.maxConnectionsFor(400));
        assertEquals(384, ProxyConfig.maxConnectionsFor(1024));
        assertEquals(9_872, ProxyConfig.maxConnectionsFor(20_000));
        assertEquals(10_000, ProxyConfig.maxConnectionsFor(1_048_576));
        assertEquals(10_000, ProxyConfig.maxConnectionsFor(-1));
        assertEquals(1, ProxyConfig.maxConnectionsFor(2));
    }
}
