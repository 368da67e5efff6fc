package io.riptide.core.runtime.sim;

import io.riptide.core.runtime.Cancellable;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * One bandwidth-limited link, shared fairly between the host pairs sending over it, as TCP
 * connections sharing a bottleneck roughly are: each pair's messages form a flow that crosses in
 * the order sent (one connection, head of line), and the flows with something to send split the
 * link's bandwidth equally (processor sharing). A 16 MB body thus slows a heartbeat from another
 * host by half instead of holding it for the 90 s the body takes at 1.5 Mb/s, which is what a
 * first-come-first-served link of whole messages did.
 *
 * <p>The buffer is a bound on waiting, as before: a message whose wait, counted at arrival as the
 * work ahead of it in its own flow plus what the other flows would be served meanwhile, exceeds
 * the buffer is dropped. Work is counted in nanoseconds at the link's full rate, so a lone flow's
 * timings are exact integers. Virtual time (the service each active flow has received) makes
 * every arrival and completion O(log flows), the textbook processor-sharing implementation.
 */
final class SharedLink {
    private static final double EPSILON = 1e-3;

    private final Simulation sim;
    final long bitsPerSecond;
    private final Map<Long, Flow> flows = new HashMap<>();
    private final PriorityQueue<Flow> active = new PriorityQueue<>((a, b) -> Double.compare(a.finishTag, b.finishTag));
    /** Service each active flow has received since the link was last idle, in full-rate nanoseconds. */
    private double virtual;
    private long lastNanos;
    /** Sum of the active flows' finish tags, for the backlog in O(1). */
    private double sumTags;
    /** Work queued behind the flows' heads. */
    private long queuedWork;
    private Cancellable next;
    long bytes;

    private static final class Flow {
        final long key;
        final ArrayDeque<Entry> waiting = new ArrayDeque<>();
        long waitingWork;
        Entry head;
        double finishTag;

        Flow(long key) {
            this.key = key;
        }
    }

    private record Entry(long work, Runnable done) {
    }

    SharedLink(Simulation sim, long bitsPerSecond) {
        this.sim = sim;
        this.bitsPerSecond = bitsPerSecond;
        this.lastNanos = sim.now();
    }

    /**
     * Offers {@code frameBytes} from the pair {@code flowKey}; returns false (and takes nothing) if
     * the message would wait longer than {@code bufferNanos}; {@code done} runs once it is through.
     */
    boolean offer(long flowKey, long frameBytes, long bufferNanos, Runnable done) {
        advance();
        long work = transmitNanos(frameBytes);
        Flow flow = flows.get(flowKey);
        double ahead = flow == null ? 0 : flow.finishTag - virtual + flow.waitingWork;
        double others = backlogWork() - ahead;
        int otherFlows = active.size() - (flow == null ? 0 : 1);
        double wait = ahead + Math.min(others, otherFlows * (ahead + work));
        if (wait > bufferNanos) {
            return false;
        }
        bytes += frameBytes;
        Entry entry = new Entry(work, done);
        if (flow == null) {
            flow = new Flow(flowKey);
            flows.put(flowKey, flow);
            start(flow, entry);
            reschedule();
        } else {
            flow.waiting.add(entry);
            flow.waitingWork += work;
            queuedWork += work;
        }
        return true;
    }

    /** Work not yet done, in nanoseconds at the full rate: how long the link would take to drain. */
    long backlogNanos() {
        advance();
        return (long) Math.ceil(backlogWork());
    }

    private double backlogWork() {
        return sumTags - active.size() * virtual + queuedWork;
    }

    private void start(Flow flow, Entry entry) {
        flow.head = entry;
        flow.finishTag = virtual + entry.work;
        sumTags += flow.finishTag;
        active.add(flow);
    }

    private void advance() {
        long now = sim.now();
        if (!active.isEmpty()) {
            virtual += (double) (now - lastNanos) / active.size();
        }
        lastNanos = now;
    }

    private void reschedule() {
        if (next != null) {
            next.cancel();
            next = null;
        }
        if (active.isEmpty()) {
            virtual = 0;
            sumTags = 0;
            return;
        }
        double remaining = (active.peek().finishTag - virtual) * active.size();
        // At least a nanosecond: a rounding short of the tag must not spin at one instant.
        next = sim.at(Math.max(1, (long) Math.ceil(remaining - EPSILON)), this::complete);
    }

    private void complete() {
        next = null;
        advance();
        while (!active.isEmpty() && active.peek().finishTag - virtual <= EPSILON) {
            Flow flow = active.poll();
            sumTags -= flow.finishTag;
            Entry done = flow.head;
            Entry following = flow.waiting.poll();
            if (following == null) {
                flows.remove(flow.key);
            } else {
                flow.waitingWork -= following.work;
                queuedWork -= following.work;
                start(flow, following);
            }
            done.done.run();
        }
        reschedule();
    }

    private long transmitNanos(long frameBytes) {
        return Math.max(1, frameBytes * 8 * 1_000_000_000L / bitsPerSecond);
    }
}
