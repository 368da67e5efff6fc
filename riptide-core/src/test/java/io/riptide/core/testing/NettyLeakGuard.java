package io.riptide.core.testing;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes a Netty resource leak a test failure rather than a log line nobody reads.
 *
 * <p>{@link #install()} (run by {@link NettyLeakGuardSession} when the JUnit launcher session opens,
 * before any test class loads Netty's buffers) puts a recording detector behind every Netty leak
 * detector; {@link NettyLeakCheck} then fails each test class after which a leak was reported.
 *
 * <p>The state here is static because Netty creates its detectors in static initialisers: there is
 * one detector per resource type per JVM, so there is one record of leaks per JVM. Test code only.
 */
public final class NettyLeakGuard {
    /** Rounds of collect-then-allocate in {@link #provoke()}: enough for the reference handler to catch up. */
    private static final int PROVOKE_ROUNDS = 5;

    private static final Queue<Leak> LEAKS = new ConcurrentLinkedQueue<>();

    private NettyLeakGuard() {
    }

    /**
     * Tracks every buffer (paranoid level) and records every leak report. Must run before Netty's
     * buffer classes are initialised; harmless to call again.
     */
    public static synchronized void install() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        if (!(ResourceLeakDetectorFactory.instance() instanceof RecordingLeakDetectorFactory)) {
            ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new RecordingLeakDetectorFactory());
        }
    }

    /**
     * Whether buffer leaks will be recorded: the guard's detector is the one Netty's buffers use and
     * every buffer is tracked. False when buffers were initialised before {@link #install()}.
     */
    public static boolean isActive() {
        return ResourceLeakDetector.getLevel() == ResourceLeakDetector.Level.PARANOID
                && byteBufDetector() instanceof RecordingLeakDetector;
    }

    private static Object byteBufDetector() {
        try {
            Field f = AbstractByteBuf.class.getDeclaredField("leakDetector");
            f.setAccessible(true);
            return f.get(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot inspect Netty's buffer leak detector; has Netty changed?", e);
        }
    }

    static void record(Leak leak) {
        LEAKS.add(leak);
    }

    /**
     * Gets the detector to report leaks of buffers already unreachable: Netty only checks for leaks
     * when it tracks a new buffer, and only sees buffers the garbage collector has found.
     */
    public static void provoke() {
        for (int i = 0; i < PROVOKE_ROUNDS; i++) {
            System.gc();
            // Lets the reference handler thread enqueue what the collection found.
            LockSupport.parkNanos(10_000_000);
            touchAllocators();
        }
    }

    private static void touchAllocators() {
        // Every allocation that Netty tracks checks for leaks; unpooled heap buffers are not tracked.
        ByteBuf[] probes = {
            UnpooledByteBufAllocator.DEFAULT.directBuffer(1),
            PooledByteBufAllocator.DEFAULT.heapBuffer(1),
            PooledByteBufAllocator.DEFAULT.directBuffer(1),
        };
        for (ByteBuf probe : probes) {
            probe.release();
        }
    }

    /** The leaks recorded and not yet drained. */
    public static List<Leak> leaks() {
        return List.copyOf(LEAKS);
    }

    /** Removes and returns every recorded leak. */
    public static List<Leak> drain() {
        List<Leak> out = new ArrayList<>();
        for (Leak l; (l = LEAKS.poll()) != null; ) {
            out.add(l);
        }
        return out;
    }

    /** Removes and returns the recorded leaks whose records contain {@code marker} (say, a touch hint). */
    public static List<Leak> drainMatching(String marker) {
        List<Leak> out = new ArrayList<>();
        for (Leak l : LEAKS) {
            if (l.records().contains(marker) && LEAKS.remove(l)) {
                out.add(l);
            }
        }
        return out;
    }
}
