package io.riptide.dolr.delta;

/**
 * The delta format, shared by {@link DeltaEncoder} and {@link DeltaDecoder}:
 *
 * <pre>
 * delta   = VERSION, varint(target length), op*
 * op      = varint(length &lt;&lt; 1 | 0), varint(offset in base)   -- copy length bytes of the base
 *         | varint(length &lt;&lt; 1 | 1), length literal bytes      -- insert them
 * varint  = unsigned LEB128, at most 5 bytes, value at most Integer.MAX_VALUE
 * </pre>
 *
 * Folding the kind into the length's low bit keeps a typical op to two or three bytes.
 */
final class DeltaFormat {
    /** First byte of every delta; a different value is refused, so the format can change later. */
    static final int VERSION = 0xD1;
    static final int COPY = 0;
    static final int INSERT = 1;

    private DeltaFormat() {
    }
}
