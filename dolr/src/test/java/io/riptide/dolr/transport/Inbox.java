package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A node's handler in tests: records what arrived, from whom, and on which thread. */
final class Inbox implements MessageHandler {
    /** One delivered message. */
    record Received(NodeHandle from, WireMessage message, Thread thread) {
    }

    private final LinkedBlockingQueue<Received> queue = new LinkedBlockingQueue<>();

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        queue.add(new Received(from, message, Thread.currentThread()));
    }

    /** The next message, failing the test if none comes within {@code timeout}. */
    Received take(Duration timeout) throws InterruptedException {
        Received r = queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        assertNotNull(r, "no message within " + timeout);
        return r;
    }

    /** The next message, or null if none comes within {@code timeout}. */
    Received poll(Duration timeout) throws InterruptedException {
        return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Up to {@code n} messages, waiting at most {@code timeout} in all. */
    List<Received> take(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Received> out = new ArrayList<>(n);
        while (out.size() < n) {
            long left = deadline - System.nanoTime();
            Received r = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
            if (r == null) {
                break;
            }
            out.add(r);
        }
        return out;
    }

    int size() {
        return queue.size();
    }
}
