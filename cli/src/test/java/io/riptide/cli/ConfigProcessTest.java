package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide node} in a JVM of its own: what a service manager sees, the config applied and the real exit codes. */
class ConfigProcessTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aNodeRunsFromItsConfigFile() throws Exception {
        Path conf = dir.resolve("node.conf");
        Files.write(conf, List.of("# test node", "port = 0", "status-every = 300ms", "key = " + dir.resolve("node.key")));
        try (NodeProcess node = NodeProcess.start("configured", dir, "--config", conf.toString())) {
            node.await(l -> l.startsWith("created a new key in " + dir.resolve("node.key")), "that it made its key", WAIT);
            node.await(l -> l.contains(" listening on 127.0.0.1:"), "its address", WAIT);
            // The default period is 10s; status lines this soon mean the file's 300ms was used.
            long start = System.nanoTime();
            node.await(l -> l.startsWith("status") || l.contains("leaf set"), "a status line", WAIT);
            assertTrue(System.nanoTime() - start < 8_000_000_000L, "status lines come every 300ms, not every 10s");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aBadConfigFileExitsWith2AndNamesTheLine() throws Exception {
        Path conf = dir.resolve("node.conf");
        Files.write(conf, List.of("port = 0", "prot = 1"));
        try (NodeProcess node = NodeProcess.start("misconfigured", dir, "--config", conf.toString())) {
            assertEquals(2, node.awaitExit(WAIT));
            assertTrue(node.stderr().contains(conf + ":2: unknown option 'prot' for 'riptide node'; did you mean 'port'?"),
                    node.stderr());
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aNodeThatCannotJoinExitsWith1() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        try (NodeProcess node = NodeProcess.start("alone", dir, "--port", "0", "--join", "127.0.0.1:" + closed,
                "--join-timeout", "1s")) {
            assertEquals(1, node.awaitExit(WAIT));
            assertTrue(node.stderr().startsWith("riptide node: could not join the overlay through 127.0.0.1:" + closed + " within 1s"),
                    node.stderr());
            assertTrue(!node.stderr().contains("\tat "), "no stack trace: " + node.stderr());
        }
    }
}
