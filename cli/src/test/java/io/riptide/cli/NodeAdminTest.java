package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide node --admin-port} as an operator runs it: a process whose status {@code riptide status} reads. */
class NodeAdminTest {
    private static final Pattern LISTENING = Pattern.compile("node ([0-9a-f]{40}) listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern ADMIN = Pattern.compile("status page http://(127\\.0\\.0\\.1:\\d+)/ \\(also /status\\.json and /metrics\\)");
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void riptideStatusPrintsTheIdOfANodeStartedWithAnAdminPort() throws Exception {
        NodeProcess node = NodeProcess.start("node", dir, "--port", "0", "--admin-port", "0");
        try {
            Matcher id = LISTENING.matcher(node.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
            assertTrue(id.matches());
            Matcher admin = ADMIN.matcher(node.await(l -> ADMIN.matcher(l).matches(), "its status page", WAIT));
            assertTrue(admin.matches());
            CliRun cli = new CliRun();
            assertEquals(0, cli.run("status", "--admin", admin.group(1)), cli.err());
            assertTrue(cli.out().startsWith("Riptide node\n  node ID        " + id.group(1) + "\n"), cli.out());
            assertTrue(node.stderr().contains("INFO AdminServer - admin server for Riptide node listening on http://"
                    + admin.group(1) + "/"), "the log says where the admin server listens: " + node.stderr());
        } finally {
            node.close();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theCapsOnUnauthenticatedConnectionsReachTheNodeAndItsMetrics() throws Exception {
        NodeProcess node = NodeProcess.start("node", dir, "--port", "0", "--admin-port", "0",
                "--max-unauthenticated-per-source", "2", "--max-unauthenticated", "3");
        List<Socket> silent = new ArrayList<>();
        try {
            Matcher id = LISTENING.matcher(node.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
            assertTrue(id.matches());
            Matcher admin = ADMIN.matcher(node.await(l -> ADMIN.matcher(l).matches(), "its status page", WAIT));
            assertTrue(admin.matches());
            int port = Integer.parseInt(id.group(2));
            // The node greets the two it admits with its Hello; the third it closes without a word. They
            // come from 127.0.0.2: connections from the node's own address count toward the total only.
            for (int i = 0; i < 3; i++) {
                Socket s = new Socket();
                silent.add(s);
                s.bind(new InetSocketAddress("127.0.0.2", 0));
                s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
                s.setSoTimeout((int) WAIT.toMillis());
                InputStream in = s.getInputStream();
                if (i < 2) {
                    assertTrue(in.read() >= 0, "connection " + i + " admitted");
                } else {
                    assertEquals(-1, in.read(), "the third connection from one address is closed at once");
                }
            }
            Map<String, Double> metrics = PrometheusTextParser.parse(HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://" + admin.group(1) + "/metrics")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertEquals(1.0, metrics.get("riptide_transport_connections_refused_total{cap=\"per-source\"}"), metrics.toString());
            assertEquals(0.0, metrics.get("riptide_transport_connections_refused_total{cap=\"total\"}"), metrics.toString());
            assertEquals(2.0, metrics.get("riptide_transport_unauthenticated_connections"), metrics.toString());
        } finally {
            for (Socket s : silent) {
                s.close();
            }
            node.close();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anAdminPortInUseIsAClearErrorAndExitCodeOne() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            CliRun cli = new CliRun();
            assertEquals(1, cli.run("node", "--port", "0", "--admin-port", Integer.toString(taken.getLocalPort())));
            assertTrue(cli.err().startsWith("riptide node: cannot listen on 127.0.0.1:" + taken.getLocalPort()
                    + " for the admin server"), cli.err());
            assertTrue(cli.err().endsWith("; choose another --admin-port, or 0 for any free one\n"), cli.err());
        }
    }

    @Test
    void badAdminOptionsAreUsageErrors() {
        CliRun cli = new CliRun();
        assertEquals(2, cli.run("node", "--port", "0", "--admin-port", "70000"));
        assertEquals("riptide node: --admin-port must be between 0 and 65535, got 70000\n"
                + "Try 'riptide node --help' for the options and their defaults.\n", cli.err());
        CliRun status = new CliRun();
        assertEquals(2, status.run("status", "--admin", "nowhere"));
        assertEquals("riptide status: --admin: expected HOST:PORT, got 'nowhere'\n"
                + "Try 'riptide status --help' for the options and their defaults.\n", status.err());
    }
}
