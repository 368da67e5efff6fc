package io.riptide.dolr.server;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a running node's neighbour changes: at most one line per check, naming the leaf-set members
 * lost (failed or displaced) and gained (joined or repaired), with the failures detected meanwhile.
 * Runs on the node's loop; only real servers use it, so simulations of thousands of nodes stay quiet.
 */
final class MembershipLog {
    private static final Logger LOG = LoggerFactory.getLogger(MembershipLog.class);
    /** Most nodes named in one line; the counts are complete. */
    private static final int NAMED = 4;

    private Map<Id, NodeHandle> leaves;
    private long failures;

    /** Compares the leaf set with the last check's; the first check only remembers. */
    void check(OverlayNode node) {
        Map<Id, NodeHandle> now = new LinkedHashMap<>();
        node.leafSet().members().forEach(h -> now.put(h.id(), h));
        long failed = node.failuresDetected();
        if (leaves != null) {
            List<NodeHandle> lost = new ArrayList<>();
            leaves.forEach((id, h) -> {
                if (!now.containsKey(id)) {
                    lost.add(h);
                }
            });
            List<NodeHandle> gained = now.values().stream().filter(h -> !leaves.containsKey(h.id())).toList();
            long newFailures = failed - failures;
            if (!lost.isEmpty() || !gained.isEmpty() || newFailures > 0) {
                StringBuilder line = new StringBuilder("node ").append(node.self().id().shortHex()).append(": leaf set ")
                        .append(now.size());
                if (!lost.isEmpty()) {
                    line.append(", lost ").append(named(lost));
                }
                if (!gained.isEmpty()) {
                    line.append(", gained ").append(named(gained));
                }
                if (newFailures > 0) {
                    line.append(", declared ").append(newFailures).append(" peers failed");
                }
                LOG.info(line.toString());
            }
        }
        leaves = now;
        failures = failed;
    }

    private static String named(List<NodeHandle> nodes) {
        String names = String.join(" ", nodes.stream().limit(NAMED).map(NodeHandle::toString).toList());
        return names + (nodes.size() > NAMED ? " and " + (nodes.size() - NAMED) + " more" : "");
    }
}
