package io.riptide.dolr.membership;

import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.core.wire.WireWriter;
import java.util.List;

/** The messages of joining, keep-alive, failure detection, repair and proximity maintenance. */
public final class MembershipMessages {
    /** Most node handles one membership message may carry. */
    public static final int MAX_HANDLES = 1024;

    private MembershipMessages() {
    }

    /** From a new node to its bootstrap: please route my join. */
    public record JoinRequest(NodeHandle joiner) implements WireMessage {
    }

    /** Routed toward the joiner's ID; every node on the way answers with its state. */
    public record Join(NodeHandle joiner) implements WireMessage {
    }

    /** A node's routing state for a joiner: table rows, and its leaf set ({@code root} when it is the joiner's root). */
    public record JoinState(boolean root, List<NodeHandle> table, List<NodeHandle> leafSet) implements WireMessage {
    }

    /** A node that finished joining tells the nodes it knows that it exists. */
    public record Announce() implements WireMessage {
    }

    /**
     * A liveness and round-trip probe. {@code member} is false while the sender is still joining, so
     * the receiver does not take it into its routing state before it is ready to route.
     */
    public record Ping(long nonce, boolean member) implements WireMessage {
    }

    /** The answer to a {@link Ping}. */
    public record Pong(long nonce) implements WireMessage {
    }

    /** A leaf-set member's periodic heartbeat, carrying its leaf set so the sets converge. */
    public record LeafSetGossip(List<NodeHandle> leafSet) implements WireMessage {
    }

    /** Asks a node for its whole leaf set, answered with a {@link LeafSetGossip}: to refill a gap a failure left. */
    public record LeafSetRequest() implements WireMessage {
    }

    /** Asks for one routing-table row (or, with row -1, the local neighbours). */
    public record RowRequest(int row) implements WireMessage {
    }

    /**
     * The answer to a {@link RowRequest}: the entries, and the sender's least RTT to each in
     * microseconds (-1: not measured). The asker bounds its own distance to an entry by the triangle
     * inequality, |its RTT to the sender - the sender's to the entry|, and need not probe an entry that
     * could not beat what its slot holds. The RTTs are new in wire version 7.
     */
    public record RowReply(int row, List<NodeHandle> entries, List<Integer> rttMicros) implements WireMessage {
        public RowReply {
            entries = List.copyOf(entries);
            rttMicros = List.copyOf(rttMicros);
            if (rttMicros.size() != entries.size()) {
                throw new IllegalArgumentException("a row reply needs one RTT per entry: " + entries.size() + " entries, " + rttMicros.size() + " RTTs");
            }
        }

        /** The sender's least RTT to entry {@code i} in nanoseconds, or -1 if it has not measured it. */
        public long rttNanos(int i) {
            int micros = rttMicros.get(i);
            return micros < 0 ? -1 : micros * 1_000L;
        }
    }

    /**
     * The sender is shutting down on purpose: drop it now rather than wait for its silence to be
     * noticed. Only a node's own departure can be announced (the sender is the authenticated peer).
     */
    public record Leave() implements WireMessage {
    }

    private static void handles(WireWriter out, List<NodeHandle> list) {
        out.list(list, WireWriter::handle);
    }

    /** Registers these messages in {@code codec} (tags 10–29). */
    public static void register(MessageCodec codec) {
        codec.register(10, JoinRequest.class, (m, out) -> out.handle(m.joiner()), in -> new JoinRequest(in.handle()));
        codec.register(11, Join.class, (m, out) -> out.handle(m.joiner()), in -> new Join(in.handle()));
        codec.register(12, JoinState.class,
                (m, out) -> {
                    out.bool(m.root());
                    handles(out, m.table());
                    handles(out, m.leafSet());
                },
                in -> new JoinState(in.bool(), in.list(MAX_HANDLES, r -> r.handle()), in.list(MAX_HANDLES, r -> r.handle())));
        codec.register(13, Announce.class, (m, out) -> { }, in -> new Announce());
        codec.register(14, Ping.class, (m, out) -> out.i64(m.nonce()).bool(m.member()), in -> new Ping(in.i64(), in.bool()));
        codec.register(15, Pong.class, (m, out) -> out.i64(m.nonce()), in -> new Pong(in.i64()));
        codec.register(16, LeafSetGossip.class, (m, out) -> handles(out, m.leafSet()),
                in -> new LeafSetGossip(in.list(MAX_HANDLES, r -> r.handle())));
        codec.register(17, RowRequest.class, (m, out) -> out.i32(m.row()), in -> new RowRequest(in.i32(-1, 39, "row")));
        codec.register(18, RowReply.class,
                (m, out) -> {
                    out.i32(m.row());
                    handles(out, m.entries());
                    out.list(m.rttMicros(), (w, micros) -> w.i32(micros));
                },
                in -> {
                    int row = in.i32(-1, 39, "row");
                    List<NodeHandle> entries = in.list(MAX_HANDLES, r -> r.handle());
                    List<Integer> rtts = in.list(MAX_HANDLES, r -> r.i32(-1, Integer.MAX_VALUE, "rtt"));
                    if (rtts.size() != entries.size()) {
                        throw new WireException("row reply with " + entries.size() + " entries and " + rtts.size() + " RTTs");
                    }
                    return new RowReply(row, entries, rtts);
                });
        codec.register(19, LeafSetRequest.class, (m, out) -> { }, in -> new LeafSetRequest());
        codec.register(20, Leave.class, (m, out) -> { }, in -> new Leave());
    }
}
