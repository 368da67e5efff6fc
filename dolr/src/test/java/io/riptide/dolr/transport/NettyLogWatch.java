package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Collects Netty's warnings and errors: leak reports, and exceptions that reached the end of a
 * pipeline unhandled. Netty logs through java.util.logging here, as no SLF4J provider is on the test
 * class path.
 */
public final class NettyLogWatch implements AutoCloseable {
    // Held so the JUL logger (weakly referenced by its manager) keeps our handler.
    private final Logger netty = Logger.getLogger("io.netty");
    private final List<String> problems = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                problems.add(r.getLoggerName() + ": " + r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    public NettyLogWatch() {
        netty.addHandler(handler);
    }

    /** What was logged so far, after giving the leak detector a chance to report collected buffers. */
    public List<String> problems() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
            // The detector reports leaks it found when the next buffer is tracked.
            for (int j = 0; j < 16; j++) {
                ByteBuf probe = PooledByteBufAllocator.DEFAULT.buffer(8);
                probe.release();
            }
        }
        return List.copyOf(problems);
    }

    /** Fails if Netty reported a leak or an unhandled exception. */
    public void assertClean() throws InterruptedException {
        assertEquals(List.of(), problems(), "Netty warnings or leak reports");
    }

    @Override
    public void close() {
        netty.removeHandler(handler);
    }
}
