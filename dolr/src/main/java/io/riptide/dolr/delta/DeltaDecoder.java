package io.riptide.dolr.delta;

/**
 * Applies a delta (format in {@link DeltaFormat}) to the base it was made against. Every field is
 * checked before it is used: a copy must lie inside the base, an insert inside the delta, and the
 * output can never outgrow the length the delta declared, which itself must be within the caller's
 * bound; so a hostile delta is refused with {@link MalformedDeltaException} and costs at most that
 * bound in memory.
 */
public final class DeltaDecoder {
    private final byte[] base;
    private final byte[] delta;
    private int at;

    private DeltaDecoder(byte[] base, byte[] delta) {
        this.base = base;
        this.delta = delta;
    }

    /** The target {@code delta} describes against {@code base}, at most {@code maxOutput} bytes long. */
    public static byte[] apply(byte[] base, byte[] delta, int maxOutput) throws MalformedDeltaException {
        return new DeltaDecoder(base, delta).run(maxOutput);
    }

    private byte[] run(int maxOutput) throws MalformedDeltaException {
        if (delta.length == 0 || (delta[at++] & 0xff) != DeltaFormat.VERSION) {
            throw new MalformedDeltaException("not a delta of a known version");
        }
        int length = varint("target length");
        if (length > maxOutput) {
            throw new MalformedDeltaException("target of " + length + " bytes exceeds the bound " + maxOutput);
        }
        byte[] out = new byte[length];
        int written = 0;
        while (at < delta.length) {
            int op = varint("op");
            int n = op >>> 1;
            if (n == 0) {
                throw new MalformedDeltaException("empty op at " + at);
            }
            if (n > length - written) {
                throw new MalformedDeltaException("op of " + n + " bytes overruns the declared target length " + length);
            }
            if ((op & 1) == DeltaFormat.COPY) {
                int offset = varint("copy offset");
                if (offset > base.length - n) {
                    throw new MalformedDeltaException("copy [" + offset + ", +" + n + ") outside a base of " + base.length + " bytes");
                }
                System.arraycopy(base, offset, out, written, n);
            } else {
                if (n > delta.length - at) {
                    throw new MalformedDeltaException("insert of " + n + " bytes with " + (delta.length - at) + " left");
                }
                System.arraycopy(delta, at, out, written, n);
                at += n;
            }
            written += n;
        }
        if (written != length) {
            throw new MalformedDeltaException("delta describes " + written + " of " + length + " bytes");
        }
        return out;
    }

    /** An unsigned LEB128 value of at most five bytes that fits a non-negative int. */
    private int varint(String what) throws MalformedDeltaException {
        long value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (at >= delta.length) {
                throw new MalformedDeltaException("truncated " + what);
            }
            int b = delta[at++] & 0xff;
            value |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                if (value > Integer.MAX_VALUE) {
                    throw new MalformedDeltaException(what + " out of range: " + value);
                }
                return (int) value;
            }
        }
        throw new MalformedDeltaException(what + " longer than five bytes");
    }
}
