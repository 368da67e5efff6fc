package io.riptide.proxy.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufUtil;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The memory tier's own rules: one bound for bodies and bookkeeping, newer versions win, slices outlive eviction. */
class MemoryCopiesTest {
    private static final VerifiedCopy VIEW = new VerifiedCopy(200, "OK",
            Headers.of("Cache-Control", "max-age=600", "Content-Type", "text/html"), 0, 0, 0);
    private static final CopyJudge.FreshWindow WINDOW = new CopyJudge.FreshWindow(600_000, 0, 0);

    private static Id guid(int i) {
        return Id.hash("url-" + i);
    }

    private static byte[] body(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] read(MemoryCopies.Held held) {
        byte[] bytes = ByteBufUtil.getBytes(held.body());
        held.body().release();
        return bytes;
    }

    @Test
    void theBoundHoldsUnderAScanOfManyDistinctUrls() {
        long bound = 4L * 1024 * 1024;
        try (MemoryCopies memory = new MemoryCopies(bound)) {
            byte[] page = new byte[1024];
            for (int i = 0; i < 50_000; i++) { // 50 MB of distinct pages through a 4 MB tier
                memory.putCopy(guid(i), true, 1, VIEW, WINDOW, page, 0);
                if (i % 5_000 == 0) {
                    assertTrue(memory.figures().bytes() <= bound, "within the bound after " + i + " pages");
                }
            }
            MemoryFigures f = memory.figures();
            assertTrue(f.bytes() <= bound, f.toString());
            assertTrue(f.entries() < bound / 1024, "each entry is charged its body and its bookkeeping: " + f);
            assertTrue(f.evictions() > 40_000, f.toString());
            // A small page's bookkeeping counts: many tiny copies cannot outgrow the bound through their headers.
            for (int i = 0; i < 100_000; i++) {
                memory.putCopy(guid(1_000_000 + i), true, 1, VIEW, WINDOW, new byte[1], 0);
            }
            assertTrue(memory.figures().bytes() <= bound);
            assertTrue(memory.figures().entries() <= bound / MemoryCopies.ENTRY_HEAP_BYTES, memory.figures().toString());
        }
    }

    @Test
    void aNewerVersionReplacesTheCopyAndAnOlderOneNever() {
        try (MemoryCopies memory = new MemoryCopies(1024 * 1024)) {
            memory.putCopy(guid(1), true, 2, VIEW, WINDOW, body("two"), 0);
            memory.putCopy(guid(1), true, 1, VIEW, WINDOW, body("one"), 0);
            assertArrayEquals(body("two"), read(memory.copy(guid(1))));
            memory.putCopy(guid(1), true, 3, VIEW, WINDOW, body("three"), 0);
            MemoryCopies.Held held = memory.copy(guid(1));
            assertEquals(3, held.copy().version);
            assertArrayEquals(body("three"), read(held));
        }
    }

    @Test
    void theSameVersionAgainRenewsTheConfirmationWithoutANewBody() {
        try (MemoryCopies memory = new MemoryCopies(1024 * 1024)) {
            memory.putCopy(guid(1), true, 1, VIEW, WINDOW, body("page"), 100);
            memory.putCopy(guid(1), true, 1, VIEW, WINDOW, body("page"), 900);
            assertEquals(900, memory.peek(guid(1)).checkedNanos.get());
            assertEquals(1, memory.figures().stored(), "one body stored, renewed once");
        }
    }

    @Test
    void aBodyBeingSentOutlivesItsEvictionAndTheTierItself() {
        MemoryCopies memory = new MemoryCopies(64 * 1024);
        memory.putCopy(guid(1), true, 1, VIEW, WINDOW, body("in flight"), 0);
        MemoryCopies.Held held = memory.copy(guid(1));
        for (int i = 2; i < 200; i++) {
            memory.putCopy(guid(i), true, 1, VIEW, WINDOW, new byte[4096], 0);
        }
        assertTrue(memory.figures().evictions() > 0, "64 KB cannot hold 200 pages of 4 KB");
        memory.close();
        assertNull(memory.copy(guid(1)));
        assertArrayEquals(body("in flight"), read(held), "the slice kept its own reference");
    }

    @Test
    void aVariantRecordIsKeptBesideTheCopies() {
        try (MemoryCopies memory = new MemoryCopies(1024 * 1024)) {
            memory.putNames(guid(1), 4, List.of("accept-encoding"));
            MemoryCopies.Names names = memory.names(guid(1));
            assertNotNull(names);
            assertEquals(List.of("accept-encoding"), names.varyFields());
            assertNull(memory.copy(guid(1)), "a record is not a copy");
            memory.putNames(guid(1), 3, List.of("accept"));
            assertEquals(4, memory.names(guid(1)).version(), "an older record never replaces a newer");
        }
    }

    @Test
    void readersWithoutALockAlwaysGetTheBodyOfTheVersionTheyRead() throws Exception {
        try (MemoryCopies memory = new MemoryCopies(256 * 1024)) {
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicLong checked = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicReference<String> wrong = new java.util.concurrent.atomic.AtomicReference<>();
            List<Thread> readers = new java.util.ArrayList<>();
            for (int r = 0; r < 2; r++) {
                Thread t = new Thread(() -> {
                    while (!stop.get()) {
                        for (int i = 0; i < 8; i++) {
                            MemoryCopies.Held held = memory.copy(guid(i));
                            if (held != null) {
                                String body = new String(read(held), StandardCharsets.UTF_8);
                                if (!body.startsWith("v" + held.copy().version + " ")) {
                                    wrong.set(body + " under version " + held.copy().version);
                                }
                                checked.incrementAndGet();
                            }
                        }
                    }
                });
                t.start();
                readers.add(t);
            }
            // New versions of 8 hot URLs while a scan of cold ones forces evictions all along.
            for (int v = 1; v <= 3_000; v++) {
                memory.putCopy(guid(v % 8), true, v, VIEW, WINDOW, body("v" + v + " " + "x".repeat(v % 500)), 0);
                memory.putCopy(guid(100_000 + v), true, 1, VIEW, WINDOW, new byte[2048], 0);
            }
            stop.set(true);
            for (Thread t : readers) {
                t.join(10_000);
            }
            assertNull(wrong.get(), wrong.get());
            assertTrue(checked.get() > 0);
            assertTrue(memory.figures().bytes() <= 256 * 1024);
        }
    }
}
