package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The standalone jar's command line (no cli module, no --config) takes --allow-from as {@code riptide proxy} does. */
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
}
