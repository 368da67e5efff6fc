package io.riptide.core.hint;

import io.riptide.core.gateway.GatewayMessages;
import io.riptide.core.id.Id;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;

/**
 * Hints browser proxies send to the nearest cache manager (by anycast to its service GUID): what
 * their users missed, found slow, or found stale. The cache managers turn them into replicas and
 * monitors; a hint nobody receives is simply lost.
 */
public final class HintMessages {
    public static final int FIRST_TAG = 1020;

    private HintMessages() {
    }

    /** A read of {@code guid} (for {@code url}) answered, but slowly: {@code hops} overlay hops and {@code latencyMicros}. */
    public record LatencyHint(String url, Id guid, int hops, long latencyMicros) implements WireMessage {
    }

    /** Registers these messages in {@code codec}. */
    public static void register(MessageCodec codec) {
        codec.register(FIRST_TAG, LatencyHint.class,
                (m, out) -> out.string(m.url()).id(m.guid()).u16(Math.max(0, Math.min(m.hops(), 0xffff))).i64(m.latencyMicros()),
                in -> new LatencyHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), in.u16(), in.i64()));
    }
}
