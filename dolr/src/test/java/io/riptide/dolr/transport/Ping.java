package io.riptide.dolr.transport;

import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;

/** A test-only protocol message: a sequence number and some payload. */
record Ping(long n, byte[] payload) implements WireMessage {
    static final int TAG = 1;
    static final int MAX_PAYLOAD = 1 << 20;

    /** A node codec that knows only {@link Ping}. */
    static MessageCodec codec() {
        return new MessageCodec().register(TAG, Ping.class, (m, out) -> out.i64(m.n()).bytes(m.payload()),
                in -> new Ping(in.i64(), in.bytes(MAX_PAYLOAD)));
    }
}
