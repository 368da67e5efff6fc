package io.riptide.dolr.lease;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;

/** The messages of short-lived leases kept at a key's root. */
public final class LeaseMessages {
    /** Longest lease a root grants. */
    public static final long MAX_LEASE_MILLIS = 10 * 60 * 1000L;

    private LeaseMessages() {
    }

    /** Routed to {@code key}'s root: take (or, with {@code release}, give back) the lease on {@code key}. */
    public record Claim(Id key, NodeHandle claimant, long requestId, long ttlMillis, boolean release) implements WireMessage {
    }

    /** The root's answer: granted to the claimant, or held by {@code holder} for {@code remainingMillis} more. */
    public record ClaimReply(long requestId, Id key, boolean granted, NodeHandle holder, long remainingMillis) implements WireMessage {
    }

    /** Registers these messages in {@code codec} (tags 70–79). */
    public static void register(MessageCodec codec) {
        codec.register(70, Claim.class,
                (m, out) -> out.id(m.key()).handle(m.claimant()).i64(m.requestId()).i64(m.ttlMillis()).bool(m.release()),
                in -> {
                    Claim c = new Claim(in.id(), in.handle(), in.i64(), in.i64(), in.bool());
                    if (c.ttlMillis() < 0 || c.ttlMillis() > MAX_LEASE_MILLIS) {
                        throw new WireException("lease of " + c.ttlMillis() + " ms out of range");
                    }
                    return c;
                });
        codec.register(71, ClaimReply.class,
                (m, out) -> out.i64(m.requestId()).id(m.key()).bool(m.granted()).handle(m.holder()).i64(m.remainingMillis()),
                in -> new ClaimReply(in.i64(), in.id(), in.bool(), in.handle(), in.i64()));
    }
}
