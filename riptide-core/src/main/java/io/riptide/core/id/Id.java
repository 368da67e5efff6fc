package io.riptide.core.id;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A 160-bit identifier on the overlay's ring: node IDs, object GUIDs and service GUIDs alike.
 *
 * <p>Held as three primitive words (not a byte array) because routing compares and subtracts IDs on
 * every hop and the simulator keeps tens of thousands of them. A routing digit is {@link #DIGIT_BITS}
 * bits, so an ID has {@link #DIGITS} digits, most significant first.
 */
public final class Id implements Comparable<Id> {
    /** Bits in an ID. */
    public static final int BITS = 160;
    /** Bytes in an ID. */
    public static final int BYTES = BITS / 8;
    /** Bits per routing digit (base 16). */
    public static final int DIGIT_BITS = 4;
    /** Values a routing digit can take. */
    public static final int BASE = 1 << DIGIT_BITS;
    /** Routing digits in an ID. */
    public static final int DIGITS = BITS / DIGIT_BITS;
    /**
     * The hash that names things. One constant so that another algorithm can be configured, as the
     * paper intends; IDs are always the first {@link #BYTES} bytes of its output.
     */
    public static final String HASH_ALGORITHM = "SHA-256";

    public static final Id ZERO = new Id(0, 0, 0);

    // Most significant 64 bits, middle 64 bits, least significant 32 bits (stored unsigned in an int).
    private final long hi;
    private final long mid;
    private final int lo;

    private Id(long hi, long mid, int lo) {
        this.hi = hi;
        this.mid = mid;
        this.lo = lo;
    }

    /** The ID whose big-endian bytes are {@code bytes} (exactly {@link #BYTES} long). */
    public static Id fromBytes(byte[] bytes) {
        if (bytes.length != BYTES) {
            throw new IllegalArgumentException("an ID is " + BYTES + " bytes, got " + bytes.length);
        }
        return fromBytes(bytes, 0);
    }

    /** The ID stored big-endian at {@code offset} of {@code bytes}. */
    public static Id fromBytes(byte[] bytes, int offset) {
        long hi = 0;
        long mid = 0;
        int lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (bytes[offset + i] & 0xff);
            mid = (mid << 8) | (bytes[offset + 8 + i] & 0xff);
        }
        for (int i = 0; i < 4; i++) {
            lo = (lo << 8) | (bytes[offset + 16 + i] & 0xff);
        }
        return new Id(hi, mid, lo);
    }

    /** The ID built from its three words (as returned by {@link #hi()}, {@link #mid()}, {@link #lo()}). */
    public static Id fromWords(long hi, long mid, int lo) {
        return new Id(hi, mid, lo);
    }

    /** Parses 40 hex digits. */
    public static Id fromHex(String hex) {
        if (hex.length() != BYTES * 2) {
            throw new IllegalArgumentException("an ID is " + BYTES * 2 + " hex digits, got " + hex.length());
        }
        return fromBytes(HexFormat.of().parseHex(hex));
    }

    /** The first {@link #BYTES} bytes of {@link #HASH_ALGORITHM} over the concatenated parts. */
    public static Id hash(byte[]... parts) {
        MessageDigest digest = newDigest();
        for (byte[] part : parts) {
            digest.update(part);
        }
        return fromBytes(digest.digest(), 0);
    }

    /** {@link #hash(byte[]...)} of the UTF-8 encoding of {@code text}. */
    public static Id hash(String text) {
        return hash(text.getBytes(StandardCharsets.UTF_8));
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance(HASH_ALGORITHM);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(HASH_ALGORITHM + " is required by every Java platform", e);
        }
    }

    public long hi() {
        return hi;
    }

    public long mid() {
        return mid;
    }

    public int lo() {
        return lo;
    }

    /** Big-endian bytes. */
    public byte[] toBytes() {
        byte[] out = new byte[BYTES];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (hi >>> (56 - 8 * i));
            out[8 + i] = (byte) (mid >>> (56 - 8 * i));
        }
        for (int i = 0; i < 4; i++) {
            out[16 + i] = (byte) (lo >>> (24 - 8 * i));
        }
        return out;
    }

    /** Routing digit {@code index} (0 is the most significant), in [0, {@link #BASE}). */
    public int digit(int index) {
        if (index < 0 || index >= DIGITS) {
            throw new IndexOutOfBoundsException("digit " + index);
        }
        if (index < 16) {
            return (int) (hi >>> (60 - 4 * index)) & 0xf;
        } else if (index < 32) {
            return (int) (mid >>> (60 - 4 * (index - 16))) & 0xf;
        }
        return (lo >>> (28 - 4 * (index - 32))) & 0xf;
    }

    /** How many leading digits this ID shares with {@code other} ({@link #DIGITS} when equal). */
    public int sharedPrefixLength(Id other) {
        long x = hi ^ other.hi;
        if (x != 0) {
            return Long.numberOfLeadingZeros(x) / DIGIT_BITS;
        }
        x = mid ^ other.mid;
        if (x != 0) {
            return 16 + Long.numberOfLeadingZeros(x) / DIGIT_BITS;
        }
        int y = lo ^ other.lo;
        if (y != 0) {
            return 32 + Integer.numberOfLeadingZeros(y) / DIGIT_BITS;
        }
        return DIGITS;
    }

    /** {@code this - other} modulo 2^160: the clockwise distance from {@code other} to this ID. */
    public Id minus(Id other) {
        long loDiff = (lo & 0xffffffffL) - (other.lo & 0xffffffffL);
        long borrow = loDiff < 0 ? 1 : 0;
        long midDiff = mid - other.mid - borrow;
        // Borrow out of the middle word when the unsigned subtraction wrapped.
        long borrow2 = Long.compareUnsigned(mid, other.mid) < 0
                || (borrow == 1 && mid == other.mid) ? 1 : 0;
        long hiDiff = hi - other.hi - borrow2;
        return new Id(hiDiff, midDiff, (int) loDiff);
    }

    /** {@code this + other} modulo 2^160. */
    public Id plus(Id other) {
        long loSum = (lo & 0xffffffffL) + (other.lo & 0xffffffffL);
        long carry = loSum >>> 32;
        long midSum = mid + other.mid + carry;
        long carry2 = Long.compareUnsigned(midSum, mid) < 0 || (carry == 1 && midSum == mid) ? 1 : 0;
        return new Id(hi + other.hi + carry2, midSum, (int) loSum);
    }

    /** Clockwise distance from this ID to {@code other}. */
    public Id clockwiseTo(Id other) {
        return other.minus(this);
    }

    /** The shorter of the two ways round the ring between this ID and {@code other}. */
    public Id ringDistance(Id other) {
        // other - this, then negated if that is the long way round: one new ID, not two.
        long dLo = (other.lo & LO_MASK) - (lo & LO_MASK);
        long dMid = other.mid - mid - (dLo >>> 63);
        long dHi = other.hi - hi - borrowOut(other.mid, mid, dLo >>> 63);
        dLo &= LO_MASK;
        if (dHi >= 0) {
            return new Id(dHi, dMid, (int) dLo);
        }
        return new Id(negHi(dHi, dMid, dLo), negMid(dMid, dLo), (int) negLo(dLo));
    }

    /**
     * Compares how far {@code a} and {@code b} are from this ID the shorter way round the ring:
     * negative if {@code a} is nearer, zero if they are equally far (on opposite sides, or the same
     * ID), positive if {@code b} is nearer. Same order as comparing {@link #ringDistance}s, without
     * creating any IDs: the last routing hop makes this comparison once per leaf-set member.
     */
    public int compareRingDistance(Id a, Id b) {
        // a - this and b - this modulo 2^160, word by word; the lo parts are kept as unsigned longs.
        long aLo = (a.lo & LO_MASK) - (lo & LO_MASK);
        long aMid = a.mid - mid - (aLo >>> 63);
        long aHi = a.hi - hi - borrowOut(a.mid, mid, aLo >>> 63);
        aLo &= LO_MASK;
        long bLo = (b.lo & LO_MASK) - (lo & LO_MASK);
        long bMid = b.mid - mid - (bLo >>> 63);
        long bHi = b.hi - hi - borrowOut(b.mid, mid, bLo >>> 63);
        bLo &= LO_MASK;
        // A clockwise difference past half the ring (top bit set) is shorter the other way: negate it.
        // Exactly half the ring negates to itself, so either way gives the same distance.
        if (aHi < 0) {
            long h = negHi(aHi, aMid, aLo);
            aMid = negMid(aMid, aLo);
            aLo = negLo(aLo);
            aHi = h;
        }
        if (bHi < 0) {
            long h = negHi(bHi, bMid, bLo);
            bMid = negMid(bMid, bLo);
            bLo = negLo(bLo);
            bHi = h;
        }
        int c = Long.compareUnsigned(aHi, bHi);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(aMid, bMid);
        if (c != 0) {
            return c;
        }
        return Long.compare(aLo, bLo);
    }

    /**
     * Compares the clockwise distances from this ID to {@code a} and to {@code b}: the sign of
     * {@code clockwiseTo(a).compareTo(clockwiseTo(b))}, without creating any IDs.
     */
    public int compareClockwiseDistance(Id a, Id b) {
        // Walking clockwise from this ID, the IDs at or above it come first, then those below it.
        boolean aWraps = a.compareTo(this) < 0;
        boolean bWraps = b.compareTo(this) < 0;
        if (aWraps != bWraps) {
            return aWraps ? 1 : -1;
        }
        return Integer.signum(a.compareTo(b));
    }

    /**
     * Compares the counter-clockwise distances from this ID to {@code a} and to {@code b}: the sign
     * of {@code a.clockwiseTo(this).compareTo(b.clockwiseTo(this))}, without creating any IDs.
     */
    public int compareCounterClockwiseDistance(Id a, Id b) {
        // Walking counter-clockwise from this ID, the IDs at or below it come first (largest first),
        // then those above it (again largest first).
        boolean aWraps = a.compareTo(this) > 0;
        boolean bWraps = b.compareTo(this) > 0;
        if (aWraps != bWraps) {
            return aWraps ? 1 : -1;
        }
        return Integer.signum(b.compareTo(a));
    }

    private static final long LO_MASK = 0xffffffffL;

    // Borrow out of the middle word of x - y, given the borrow into it from the low word.
    private static long borrowOut(long xMid, long yMid, long borrowIn) {
        return Long.compareUnsigned(xMid, yMid) < 0 || (borrowIn == 1 && xMid == yMid) ? 1 : 0;
    }

    // Two's complement negation modulo 2^160, word by word (lo as an unsigned 32-bit value in a
    // long): -x = ~x + 1, the +1 carrying up only through words that are zero.
    private static long negLo(long lo) {
        return -lo & LO_MASK;
    }

    private static long negMid(long mid, long lo) {
        return lo == 0 ? -mid : ~mid;
    }

    private static long negHi(long hi, long mid, long lo) {
        return lo == 0 && mid == 0 ? -hi : ~hi;
    }

    /**
     * Whether this ID is strictly closer to {@code key} on the ring than {@code other}; ties (the two
     * IDs equidistant on opposite sides) go to the numerically smaller ID so every node agrees.
     */
    public boolean closerTo(Id key, Id other) {
        int c = key.compareRingDistance(this, other);
        if (c != 0) {
            return c < 0;
        }
        return compareTo(other) < 0;
    }

    /** Unsigned numeric order. */
    @Override
    public int compareTo(Id o) {
        int c = Long.compareUnsigned(hi, o.hi);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(mid, o.mid);
        if (c != 0) {
            return c;
        }
        return Integer.compareUnsigned(lo, o.lo);
    }

    /** The ID as a fraction of the ring in [0, 1), for charts and estimates. */
    public double toUnitInterval() {
        return (hi >>> 11) * 0x1.0p-53;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Id other && hi == other.hi && mid == other.mid && lo == other.lo;
    }

    /**
     * Which of {@code slices} equal slices this ID falls in, for spreading periodic work on many
     * objects (republishing, tree beats) over a period instead of doing it in one burst.
     */
    public int slice(int slices) {
        return Math.floorMod(hashCode(), slices);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hi) * 31 + Long.hashCode(mid) * 17 + lo;
    }

    /** 40 lower-case hex digits. */
    public String toHex() {
        return HexFormat.of().formatHex(toBytes());
    }

    /** The first 8 hex digits, for logs. */
    public String shortHex() {
        return toHex().substring(0, 8);
    }

    @Override
    public String toString() {
        return toHex();
    }
}
