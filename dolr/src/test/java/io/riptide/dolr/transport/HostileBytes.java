package io.riptide.dolr.transport;

import java.util.Arrays;
import java.util.Random;

/** What the fuzz tests send: random bytes, and real frames or bodies damaged the ways a liar or a bad link would. */
final class HostileBytes {
    private HostileBytes() {
    }

    static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** {@code b} with one to three bits flipped, in place. */
    static byte[] flipBits(Random r, byte[] b) {
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
        return b;
    }

    /** Overwrites four bytes with a length a liar would send: huge, negative, zero or off by one. */
    static byte[] forgeInt(Random r, byte[] b) {
        if (b.length < 4) {
            return b;
        }
        int at = r.nextInt(b.length - 3);
        int[] lies = {Integer.MAX_VALUE, -1, 0, 1 << 24, b.length, b.length - at, r.nextInt()};
        int v = lies[r.nextInt(lies.length)];
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
        return b;
    }

    /** Overwrites a u16 (list counts, string lengths, tags) with an extreme value. */
    static byte[] forgeShort(Random r, byte[] b) {
        if (b.length < 2) {
            return b;
        }
        int at = r.nextInt(b.length - 1);
        int[] lies = {0xffff, 0, 1, 0x8000, r.nextInt(0x10000)};
        int v = lies[r.nextInt(lies.length)];
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
        return b;
    }

    /** The head of one message on the tail of another. */
    static byte[] splice(Random r, byte[] a, byte[] b) {
        int cutA = r.nextInt(a.length + 1);
        int cutB = r.nextInt(b.length + 1);
        byte[] out = Arrays.copyOf(a, cutA + b.length - cutB);
        System.arraycopy(b, cutB, out, cutA, b.length - cutB);
        return out;
    }

    /** Another message type's tag (the donor body's first two bytes) on this body's fields, in place. */
    static byte[] retag(byte[] body, byte[] donor) {
        body[0] = donor[0];
        body[1] = donor[1];
        return body;
    }

    /** Heap in use once garbage is collected, as near as the JVM lets a test tell. */
    static long usedHeapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
