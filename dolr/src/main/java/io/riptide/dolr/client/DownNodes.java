package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access nodes a client stopped using because their connection was lost or a read through them went
 * unanswered, each pinged again in the background with a doubling backoff until it answers (then
 * {@link AccessNodes} uses it again) or {@link #MAX_TRIES} pings went unanswered (then it is
 * forgotten; a seed is still pinged every probe period). Bounded; runs on the client's loop.
 */
final class DownNodes {
    private static final Logger LOG = LoggerFactory.getLogger(DownNodes.class);

    /** The first ping after a node goes down: past the transport's backoff after a refused connect. */
    static final Duration FIRST_RETRY = Duration.ofMillis(500);
    /** Unanswered pings before a down node is forgotten: with the backoff, a few minutes. */
    static final int MAX_TRIES = 12;
    /** Down nodes kept at most; the longest down goes first. */
    static final int MAX_KEPT = 32;

    private record Down(NodeHandle node, long sinceNanos, int tries, Cancellable retry) {
    }

    private final Env env;
    private final Duration maxBackoff;
    private final Consumer<NodeAddress> ping;
    private final Map<Id, Down> down = new LinkedHashMap<>();
    private long lost;

    /**
     * @param maxBackoff the longest wait between two pings (the client's probe period)
     * @param ping       pings an address; its answer, if any, goes to {@link AccessNodes}
     */
    DownNodes(Env env, Duration maxBackoff, Consumer<NodeAddress> ping) {
        this.env = env;
        this.maxBackoff = maxBackoff;
        this.ping = ping;
    }

    /** Marks {@code node} down for {@code why}, and starts pinging it; false if it was down already. */
    boolean markDown(NodeHandle node, String why) {
        if (down.containsKey(node.id())) {
            return false;
        }
        if (down.size() >= MAX_KEPT) {
            Iterator<Down> oldest = down.values().iterator();
            oldest.next().retry().cancel();
            oldest.remove();
        }
        lost++;
        LOG.info("access node {} is down ({}): reads go through the next nearest; pinging it again in the background", node, why);
        down.put(node.id(), new Down(node, env.nowNanos(), 0, env.schedule(FIRST_RETRY, () -> retry(node.id()))));
        return true;
    }

    private void retry(Id id) {
        Down d = down.get(id);
        if (d == null) {
            return;
        }
        if (d.tries() >= MAX_TRIES) {
            down.remove(id);
            LOG.info("access node {} did not answer {} pings: forgotten", d.node(), MAX_TRIES);
            return;
        }
        ping.accept(d.node().address());
        long wait = Math.min(maxBackoff.toNanos(), FIRST_RETRY.toNanos() << Math.min(20, d.tries() + 1));
        down.put(id, new Down(d.node(), d.sinceNanos(), d.tries() + 1, env.schedule(Duration.ofNanos(wait), () -> retry(id))));
    }

    /** Whether {@code id} is down. */
    boolean isDown(Id id) {
        return down.containsKey(id);
    }

    /** {@code id} answered: it is no longer down and no longer pinged here. True if it was down. */
    boolean up(Id id) {
        Down d = down.remove(id);
        if (d == null) {
            return false;
        }
        d.retry().cancel();
        LOG.info("access node {} answers again after {} ms down", d.node(), (env.nowNanos() - d.sinceNanos()) / 1_000_000);
        return true;
    }

    /** The nodes down now, the longest down first. */
    List<NodeHandle> nodes() {
        List<NodeHandle> all = new ArrayList<>(down.size());
        down.values().forEach(d -> all.add(d.node()));
        return all;
    }

    /** Access nodes marked down so far (each time it went down). */
    long lost() {
        return lost;
    }
}
