package io.riptide.dolr.delta;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Encodes a new version of an object as a delta against an old one (format in {@link DeltaFormat}).
 * The old bytes are cut into fixed blocks indexed by a rolling hash; the new bytes are scanned with
 * the same rolling window, and every window that matches a block becomes a copy, grown forwards and
 * backwards as far as the bytes agree. Whatever matches nothing is inserted literally. Linear in
 * the sizes of both versions.
 */
public final class DeltaEncoder {
    // Multiplier of the polynomial rolling hash (odd, so no bit of the window is lost mod 2^32).
    private static final int MULTIPLIER = 0x01000193;

    private DeltaEncoder() {
    }

    /** The delta that turns {@code base} into {@code target}. */
    public static byte[] encode(byte[] base, byte[] target) {
        Output out = new Output(target.length / 8 + 16);
        out.write(DeltaFormat.VERSION);
        out.varint(target.length);
        int block = blockSize(base.length);
        if (base.length < block || target.length < block) {
            out.insert(target, 0, target.length);
            return out.toByteArray();
        }
        BlockIndex index = new BlockIndex(base, block);
        int power = power(block);
        int literalStart = 0;
        int i = 0;
        int hash = hash(target, 0, block);
        while (i + block <= target.length) {
            int match = index.find(hash, target, i);
            if (match < 0) {
                if (i + block < target.length) {
                    hash = (hash - (target[i] & 0xff) * power) * MULTIPLIER + (target[i + block] & 0xff);
                }
                i++;
                continue;
            }
            int start = i;
            int from = match;
            // Grow the match backwards into bytes that would otherwise be inserted.
            while (start > literalStart && from > 0 && target[start - 1] == base[from - 1]) {
                start--;
                from--;
            }
            int end = i + block;
            int baseEnd = match + block;
            while (end < target.length && baseEnd < base.length && target[end] == base[baseEnd]) {
                end++;
                baseEnd++;
            }
            out.insert(target, literalStart, start - literalStart);
            out.copy(from, end - start);
            i = end;
            literalStart = end;
            if (i + block <= target.length) {
                hash = hash(target, i, block);
            }
        }
        out.insert(target, literalStart, target.length - literalStart);
        return out.toByteArray();
    }

    /** Larger blocks for large objects keep the index small; small ones find short matches in pages. */
    private static int blockSize(int baseLength) {
        return baseLength <= (1 << 20) ? 16 : 64;
    }

    private static int hash(byte[] data, int from, int length) {
        int h = 0;
        for (int k = 0; k < length; k++) {
            h = h * MULTIPLIER + (data[from + k] & 0xff);
        }
        return h;
    }

    /** MULTIPLIER^(block - 1): the weight of the byte leaving the window. */
    private static int power(int block) {
        int p = 1;
        for (int k = 1; k < block; k++) {
            p *= MULTIPLIER;
        }
        return p;
    }

    /** The old version's aligned blocks by hash (open addressing, first block of a hash wins). */
    private static final class BlockIndex {
        private final byte[] base;
        private final int block;
        private final int[] hashes;
        private final int[] offsets; // offset + 1; 0 marks an empty slot
        private final int mask;

        BlockIndex(byte[] base, int block) {
            this.base = base;
            this.block = block;
            int blocks = base.length / block;
            int size = Integer.highestOneBit(Math.max(4, blocks * 2 - 1)) << 1;
            this.hashes = new int[size];
            this.offsets = new int[size];
            this.mask = size - 1;
            for (int b = 0; b < blocks; b++) {
                int offset = b * block;
                int h = hash(base, offset, block);
                int slot = slot(h);
                while (offsets[slot] != 0 && hashes[slot] != h) {
                    slot = (slot + 1) & mask;
                }
                if (offsets[slot] == 0) {
                    hashes[slot] = h;
                    offsets[slot] = offset + 1;
                }
            }
        }

        private int slot(int h) {
            return (h * 0x9E3779B9 >>> 7) & mask;
        }

        /** Offset of a block of the base equal to {@code target[at, at + block)}, or -1. */
        int find(int h, byte[] target, int at) {
            int slot = slot(h);
            while (offsets[slot] != 0) {
                if (hashes[slot] == h) {
                    int offset = offsets[slot] - 1;
                    return Arrays.equals(base, offset, offset + block, target, at, at + block) ? offset : -1;
                }
                slot = (slot + 1) & mask;
            }
            return -1;
        }
    }

    /** The delta being written. */
    private static final class Output extends ByteArrayOutputStream {
        // An op's length shifted left by one must still fit a non-negative int.
        private static final int MAX_OP = 1 << 29;

        Output(int size) {
            super(size);
        }

        void varint(int value) {
            int v = value;
            while ((v & ~0x7f) != 0) {
                write((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            write(v);
        }

        void insert(byte[] data, int from, int length) {
            for (int done = 0; done < length; ) {
                int n = Math.min(length - done, MAX_OP);
                varint(n << 1 | DeltaFormat.INSERT);
                write(data, from + done, n);
                done += n;
            }
        }

        void copy(int offset, int length) {
            for (int done = 0; done < length; ) {
                int n = Math.min(length - done, MAX_OP);
                varint(n << 1 | DeltaFormat.COPY);
                varint(offset + done);
                done += n;
            }
        }
    }
}
