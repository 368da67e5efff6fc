package io.riptide.dolr.bloom;

import io.riptide.core.id.Id;
import java.util.Arrays;

/**
 * A Bloom filter over GUIDs. GUIDs are already uniform hashes, so the k bit positions come from
 * double hashing on two of the GUID's words instead of hashing again.
 */
public final class BloomFilter {
    private final long[] words;
    private final int hashes;

    /** An empty filter of {@code bits} bits (a multiple of 64) and {@code hashes} hash functions. */
    public BloomFilter(int bits, int hashes) {
        if (bits <= 0 || bits % 64 != 0 || hashes < 1) {
            throw new IllegalArgumentException("bits must be a positive multiple of 64 and hashes positive");
        }
        this.words = new long[bits / 64];
        this.hashes = hashes;
    }

    private BloomFilter(long[] words, int hashes) {
        this.words = words;
        this.hashes = hashes;
    }

    /** A filter with the given bit words (copied), as received from a peer. */
    public static BloomFilter fromWords(long[] words, int hashes) {
        return new BloomFilter(words.clone(), hashes);
    }

    public int bits() {
        return words.length * 64;
    }

    public int hashes() {
        return hashes;
    }

    private int position(Id guid, int i) {
        long h1 = guid.hi();
        long h2 = guid.mid() | 1;
        return (int) Long.remainderUnsigned(h1 + i * h2, bits());
    }

    public void add(Id guid) {
        for (int i = 0; i < hashes; i++) {
            int p = position(guid, i);
            words[p >>> 6] |= 1L << p;
        }
    }

    /** False means certainly absent; true means probably present. */
    public boolean mightContain(Id guid) {
        for (int i = 0; i < hashes; i++) {
            int p = position(guid, i);
            if ((words[p >>> 6] & (1L << p)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Sets every bit set in {@code other} (same size). */
    public void union(BloomFilter other) {
        if (other.words.length != words.length) {
            throw new IllegalArgumentException("filters differ in size");
        }
        for (int i = 0; i < words.length; i++) {
            words[i] |= other.words[i];
        }
    }

    /** The bit words (a copy), for the wire. */
    public long[] toWords() {
        return words.clone();
    }

    /** Share of bits set: a guide to the false-positive rate. */
    public double fillRatio() {
        int set = 0;
        for (long w : words) {
            set += Long.bitCount(w);
        }
        return set / (double) bits();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BloomFilter b && b.hashes == hashes && Arrays.equals(b.words, words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words) * 31 + hashes;
    }
}
