package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Starts 3 {@code riptide node} processes and checks they form an overlay. */
class NodeProcessesTest {
    private static final Pattern LISTENING = Pattern.compile("node ([0-9a-f]{40}) listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void threeNodeProcessesFormAnOverlay() throws Exception {
        List<NodeProcess> nodes = new ArrayList<>();
        try {
            NodeProcess first = NodeProcess.start("first", dir, "--port", "0", "--status-every", "500ms");
            nodes.add(first);
            Matcher listening = LISTENING.matcher(first.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
            assertTrue(listening.matches());
            String bootstrap = "127.0.0.1:" + listening.group(2);
            first.await("started a new overlay"::equals, "that it started an overlay", WAIT);

            for (String name : List.of("second", "third")) {
                nodes.add(NodeProcess.start(name, dir, "--port", "0", "--join", bootstrap, "--status-every", "500ms",
                        "--key", dir.resolve(name + ".key").toString()));
            }
            List<String> ids = new ArrayList<>();
            for (NodeProcess n : nodes) {
                Matcher m = LISTENING.matcher(n.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
                assertTrue(m.matches());
                ids.add(m.group(1));
            }
            assertEquals(3, ids.stream().distinct().count(), "three distinct node IDs: " + ids);
            for (NodeProcess n : nodes.subList(1, 3)) {
                n.await(("joined the overlay through " + bootstrap)::equals, "that it joined", WAIT);
            }
            // Each node knows both others: with three nodes, a leaf set holds everyone else.
            for (NodeProcess n : nodes) {
                n.await(l -> l.startsWith("status: joined, leaf set 2,"), "a status line with leaf set 2", WAIT);
            }

            for (NodeProcess n : nodes) {
                assertTrue(n.stop(), "stopped on SIGTERM");
                assertTrue(n.lines().contains("node stopped"), "shut down cleanly: " + n.lines());
                assertFalse(n.stderr().contains("LEAK"), "no Netty leak reported: " + n.stderr());
            }
        } finally {
            for (NodeProcess n : nodes) {
                n.close();
            }
        }
    }
}
