package io.riptide.dolr.delta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The delta codec: round trips on random and edited data, compactness on small edits, and hostile deltas refused. */
class DeltaCodecTest {
    private static final int BOUND = 1 << 20;

    private static byte[] random(SplittableRandom r, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }

    /** {@code base} with a few random insertions, deletions and overwrites. */
    private static byte[] edit(SplittableRandom r, byte[] base, int edits) {
        byte[] out = base;
        for (int e = 0; e < edits; e++) {
            int at = r.nextInt(out.length + 1);
            int len = 1 + r.nextInt(40);
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(out, 0, at);
            switch (r.nextInt(3)) {
                case 0 -> {
                    b.writeBytes(random(r, len));
                    b.write(out, at, out.length - at);
                }
                case 1 -> b.write(out, Math.min(out.length, at + len), out.length - Math.min(out.length, at + len));
                default -> {
                    b.writeBytes(random(r, len));
                    b.write(out, Math.min(out.length, at + len), out.length - Math.min(out.length, at + len));
                }
            }
            out = b.toByteArray();
        }
        return out;
    }

    private static byte[] roundTrip(byte[] base, byte[] target) throws MalformedDeltaException {
        byte[] delta = DeltaEncoder.encode(base, target);
        byte[] back = DeltaDecoder.apply(base, delta, BOUND);
        assertArrayEquals(target, back);
        return delta;
    }

    @Test
    void roundTripsRandomAndEditedData() throws Exception {
        SplittableRandom r = new SplittableRandom(7);
        for (int trial = 0; trial < 300; trial++) {
            byte[] base = random(r, r.nextInt(5000));
            roundTrip(base, random(r, r.nextInt(5000)));
            roundTrip(base, edit(r, base, 1 + r.nextInt(10)));
            roundTrip(new byte[0], base);
            roundTrip(base, new byte[0]);
        }
        // Repetitive data: many blocks share a hash and a match can run past block boundaries.
        byte[] zeros = new byte[10_000];
        byte[] shifted = Arrays.copyOfRange(zeros, 3, 10_000);
        roundTrip(zeros, shifted);
        roundTrip(zeros, new byte[25_000]);
    }

    @Test
    void aSmallEditToALargePageIsASmallDelta() throws Exception {
        StringBuilder page = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            page.append("<p>paragraph ").append(i).append(" of a page that changes in one place</p>\n");
        }
        byte[] v1 = page.toString().getBytes(StandardCharsets.UTF_8);
        byte[] v2 = page.toString().replace("paragraph 300 ", "paragraph three hundred, edited, ").getBytes(StandardCharsets.UTF_8);
        byte[] delta = roundTrip(v1, v2);
        assertTrue(delta.length < 100, "delta of " + delta.length + " bytes for a " + v2.length + "-byte page");
        assertTrue(roundTrip(v2, v2).length < 16, "an unchanged object is a copy or two");
    }

    @Test
    void hostileDeltasAreRefused() throws Exception {
        byte[] base = new byte[100];
        int v = 0xD1;
        // Wrong version, empty, truncated header.
        assertRefused(base, new byte[0]);
        assertRefused(base, new byte[] {0x00, 0x01});
        assertRefused(base, new byte[] {(byte) v});
        // Declared target larger than the bound.
        assertRefused(base, new byte[] {(byte) v, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x7f});
        // Varints that overflow an int or run on past five bytes.
        assertRefused(base, new byte[] {(byte) v, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f});
        assertRefused(base, new byte[] {(byte) v, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x00});
        // Copy out of the base: offset past its end, and a length running past it.
        assertRefused(base, new byte[] {(byte) v, 10, 10 << 1, 100});
        assertRefused(base, new byte[] {(byte) v, 60, 60 << 1, 50});
        // Copy offset near Integer.MAX_VALUE: offset + length must not wrap.
        assertRefused(base, new byte[] {(byte) v, 10, 10 << 1, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07});
        // Insert longer than what is left of the delta.
        assertRefused(base, new byte[] {(byte) v, 10, (10 << 1) | 1, 1, 2, 3});
        // Ops writing past the declared length, an empty op, and ops short of it.
        assertRefused(base, new byte[] {(byte) v, 2, (3 << 1) | 1, 1, 2, 3});
        assertRefused(base, new byte[] {(byte) v, 2, 0, 0});
        assertRefused(base, new byte[] {(byte) v, 4, (2 << 1) | 1, 1, 2});
        // Random garbage never does anything but decode or refuse.
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            byte[] junk = random(r, r.nextInt(40));
            if (junk.length > 0 && r.nextBoolean()) {
                junk[0] = (byte) v;
            }
            try {
                byte[] out = DeltaDecoder.apply(base, junk, 4096);
                assertTrue(out.length <= 4096);
            } catch (MalformedDeltaException expected) {
                // refused, as it should be
            }
        }
    }

    @Test
    void aDeltaAgainstAnotherBaseNeverReadsOutsideIt() throws Exception {
        SplittableRandom r = new SplittableRandom(11);
        byte[] base = random(r, 4000);
        byte[] delta = DeltaEncoder.encode(base, edit(r, base, 3));
        assertRefused(Arrays.copyOf(base, 100), delta);
    }

    private static void assertRefused(byte[] base, byte[] delta) {
        assertThrows(MalformedDeltaException.class, () -> DeltaDecoder.apply(base, delta, BOUND));
    }
}
