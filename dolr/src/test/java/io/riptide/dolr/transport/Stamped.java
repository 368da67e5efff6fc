package io.riptide.dolr.transport;

import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;

/**
 * A test-only message with a field gated by wire version, as a real message change would be: its
 * {@code stamp} is new in version 9, so it crosses only links at 9 or later; on a link at 8 it is
 * neither written nor read, and arrives as {@link #ABSENT}.
 */
record Stamped(long n, long stamp) implements WireMessage {
    static final int TAG = 2;
    /** The version {@code stamp} is new in. */
    static final int STAMP_SINCE = 9;
    /** What a receiver sees of a stamp its link could not carry. */
    static final long ABSENT = -1;

    /** A node codec that knows {@link Stamped}. */
    static MessageCodec codec() {
        return new MessageCodec().register(TAG, Stamped.class, (m, out) -> {
            out.i64(m.n());
            if (out.version() >= STAMP_SINCE) {
                out.i64(m.stamp());
            }
        }, in -> new Stamped(in.i64(), in.version() >= STAMP_SINCE ? in.i64() : ABSENT));
    }
}
