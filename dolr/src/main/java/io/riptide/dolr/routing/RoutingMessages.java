package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;

/** The messages of prefix routing: the routed envelope and the hop-by-hop acknowledgement around it. */
public final class RoutingMessages {
    private RoutingMessages() {
    }

    /**
     * A payload on its way to the root of {@code key}. {@code hops} counts overlay hops taken so far;
     * {@code pathNanos} adds up each hop's one-way latency estimate (half its measured RTT), so a
     * node on the way knows roughly how far the message has come.
     */
    public record Routed(Id key, NodeHandle origin, int hops, long pathNanos, WireMessage payload) implements WireMessage {
        /** The same message one hop further, over a link of {@code hopNanos}. */
        public Routed nextHop(long hopNanos) {
            return new Routed(key, origin, hops + 1, pathNanos + hopNanos, payload);
        }

        /** The same message with another payload. */
        public Routed withPayload(WireMessage newPayload) {
            return new Routed(key, origin, hops, pathNanos, newPayload);
        }
    }

    /** A message sent to one neighbour that must acknowledge it, so a dead hop is noticed and routed around. */
    public record Hop(long hopId, WireMessage inner) implements WireMessage {
    }

    /** The acknowledgement of a {@link Hop}. */
    public record HopAck(long hopId) implements WireMessage {
    }

    /** Registers these messages in {@code codec} (tags 1–9). */
    public static void register(MessageCodec codec) {
        codec.register(1, Routed.class,
                (m, out) -> out.id(m.key()).handle(m.origin()).u16(m.hops()).i64(m.pathNanos()).message(codec, m.payload()),
                in -> new Routed(in.id(), in.handle(), in.u16(), in.i64(), in.message(codec)));
        codec.register(2, Hop.class,
                (m, out) -> out.i64(m.hopId()).message(codec, m.inner()),
                in -> new Hop(in.i64(), in.message(codec)));
        codec.register(3, HopAck.class, (m, out) -> out.i64(m.hopId()), in -> new HopAck(in.i64()));
    }
}
