package io.riptide.simulator.overlay;

import io.riptide.core.wire.MessageCodec;

/**
 * The wire form of the experiments' own messages, so the link model can size them as it sizes
 * every protocol message (a routed {@link RouteProbe} crosses the same 1.5 Mb/s uplinks). Never
 * registered in a real node's codec.
 */
public final class ProbeMessages {
    private ProbeMessages() {
    }

    /** Registers these messages in {@code codec} (tags 9000–9009). */
    public static MessageCodec register(MessageCodec codec) {
        codec.register(9000, RouteProbe.class, (m, out) -> out.i64(m.id()), in -> new RouteProbe(in.i64()));
        return codec;
    }
}
