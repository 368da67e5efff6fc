package io.riptide.dolr.client;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs when a client attaches to the overlay, loses every access node (a warning: reads go to the
 * origin), or re-attaches. Checked now and then on the client's loop; silent while nothing changes.
 */
final class AttachLog {
    private static final Logger LOG = LoggerFactory.getLogger(AttachLog.class);

    private boolean attached;
    private boolean everAttached;

    void check(List<AccessNodes.Access> active) {
        boolean now = !active.isEmpty();
        if (now && !attached) {
            LOG.info("{} the overlay through {} (RTT {} ms)", everAttached ? "re-attached to" : "attached to",
                    active.get(0).node(), String.format(java.util.Locale.ROOT, "%.2f", active.get(0).rttNanos() / 1e6));
            everAttached = true;
        } else if (!now && attached) {
            LOG.warn("lost every overlay access node: reads go to the origin until one answers; check the seeds and the network");
        }
        attached = now;
    }
}
