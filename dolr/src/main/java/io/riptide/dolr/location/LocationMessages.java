package io.riptide.dolr.location;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;
import io.riptide.core.wire.WireReader;
import io.riptide.core.wire.WireWriter;
import java.util.List;

/** The messages of object location: publishing pointers, locating replicas, and their answers. */
public final class LocationMessages {
    /** Most pointers one copy message may carry. */
    public static final int MAX_POINTERS = 4096;

    private LocationMessages() {
    }

    /**
     * Routed toward {@code guid}'s root; leaves (or, when {@code withdraw}, removes) a pointer at every hop.
     * A non-zero {@code ackId} asks the root to confirm with a {@link PublishAck}.
     */
    public record Publish(Id guid, NodeHandle replica, boolean withdraw, long ackId) implements WireMessage {
    }

    /** The root's confirmation that a publish reached it, so the object is now findable from anywhere. */
    public record PublishAck(Id guid, long ackId) implements WireMessage {
    }

    /**
     * A request for the object {@code guid} on its way to a replica: routed toward the root until a
     * pointer is found, or sent directly to a neighbour whose Bloom filter claims the object
     * ({@code bloomHops} further such steps allowed). {@code hops} counts overlay hops so far and may
     * not pass {@code ttl}. {@code payload} is for the replica's application ({@link WhereIs} to
     * only find it). {@code rootChecked}: a node that took itself for the root, and had no pointer,
     * handed the request to its neighbour nearest the GUID; a second such root answers {@code NOT_FOUND}.
     */
    public record Locate(Id guid, NodeHandle requester, long requestId, int ttl, int hops, int bloomHops,
                         WireMessage payload, boolean rootChecked) implements WireMessage {
        public Locate(Id guid, NodeHandle requester, long requestId, int ttl, int hops, int bloomHops, WireMessage payload) {
            this(guid, requester, requestId, ttl, hops, bloomHops, payload, false);
        }

        /** The same request one hop further with {@code bloom} Bloom steps left. */
        public Locate step(int bloom) {
            return new Locate(guid, requester, requestId, ttl, hops + 1, bloom, payload, rootChecked);
        }

        /** The same request having taken {@code totalHops} hops. */
        public Locate atHops(int totalHops) {
            return new Locate(guid, requester, requestId, ttl, totalHops, 0, payload, rootChecked);
        }

        /** The same request, marked as handed on by a root without pointers. */
        public Locate rootWasChecked() {
            return new Locate(guid, requester, requestId, ttl, hops, bloomHops, payload, true);
        }
    }

    /** A located request handed to the node holding the replica. */
    public record ObjectDelivery(Locate request) implements WireMessage {
    }

    /** A replica's direct answer to the requester: found here, after {@code hops} hops. */
    public record Found(long requestId, Id guid, int hops) implements WireMessage {
    }

    /** Why a locate failed. */
    public enum FailureReason {
        /** The root holds no pointer: no replica is published. */
        NOT_FOUND,
        /** The hop budget ran out before a replica was reached. */
        TTL_EXPIRED,
        /** No answer before the requester's deadline. */
        TIMEOUT
    }

    /** A fast failure sent to the requester. */
    public record LocateFailed(long requestId, Id guid, FailureReason reason, int hops) implements WireMessage {
    }

    /** The payload of a plain locate: the replica only answers {@link Found}. */
    public record WhereIs() implements WireMessage {
    }

    /** The payload of a read: the replica answers {@link ReplicaRead} with its bytes. */
    public record ReadReplica() implements WireMessage {
    }

    /** A replica's direct answer to a read: its bytes, found after {@code hops} hops. */
    public record ReplicaRead(long requestId, Id guid, int hops, byte[] data) implements WireMessage {
    }

    /** Largest replica a read carries back. */
    public static final int MAX_READ_BYTES = 15 * 1024 * 1024;

    /** Largest replica head a digest-first read carries: the certificate and heartbeat, never the body. */
    public static final int MAX_HEAD_BYTES = 1024 * 1024;

    /** Length of a body digest (SHA-256). */
    public static final int DIGEST_BYTES = 32;

    /**
     * The payload of a digest-first read: the replica answers {@link HeadRead} with its head (the
     * certificate naming the body's SHA-256 and length), not its body.
     */
    public record ReadHead() implements WireMessage {
    }

    /** A replica's direct answer to a {@link ReadHead}: its head record, found after {@code hops} hops. */
    public record HeadRead(long requestId, Id guid, int hops, byte[] head) implements WireMessage {
    }

    /** Reader to the replica that sent a head: the body with SHA-256 {@code digest}, which the reader lacks. */
    public record ReadBody(long requestId, byte[] digest) implements WireMessage {
    }

    /** The answer to {@link ReadBody}; {@code found} false (and no body) if the body left the replica meanwhile. */
    public record BodyRead(long requestId, byte[] digest, boolean found, byte[] body) implements WireMessage {
    }

    /** One object pointer as copied between nodes; {@code distanceNanos} is the replica's one-way distance from the sender. */
    public record PointerRecord(Id guid, NodeHandle replica, long distanceNanos, long remainingMillis) {
    }

    /** Pointers handed to a node that is (or becomes) one of the roots of their objects. */
    public record PointerCopy(List<PointerRecord> pointers) implements WireMessage {
    }

    /**
     * A pointer holder to the requester, direct: several replicas of {@code guid} (a service's
     * providers) might be the requester's nearest, and only the requester can tell, so it measures
     * them and hands its request to the nearest itself. {@code hops} is the locate's so far.
     */
    public record Rivals(long requestId, Id guid, int hops, List<NodeHandle> replicas) implements WireMessage {
        public Rivals {
            replicas = List.copyOf(replicas);
        }
    }

    /** Most replicas a {@link Rivals} names: each costs the requester a probe (once: a distance measured is kept). */
    public static final int MAX_RIVALS = 8;

    /** Routed to {@code guid}'s root, which answers the requester with every replica its pointers name. */
    public record ListReplicas(Id guid, NodeHandle requester, long requestId) implements WireMessage {
    }

    /** The root's answer to {@link ListReplicas}: the live replicas it knows of, itself included if it holds one. */
    public record ReplicaList(long requestId, Id guid, List<NodeHandle> replicas) implements WireMessage {
        public ReplicaList {
            replicas = List.copyOf(replicas);
        }
    }

    private static void pointer(WireWriter out, PointerRecord p) {
        out.id(p.guid()).handle(p.replica()).i64(p.distanceNanos()).i64(p.remainingMillis());
    }

    private static PointerRecord pointer(WireReader in) throws io.riptide.core.wire.WireException {
        return new PointerRecord(in.id(), in.handle(), in.i64(), in.i64());
    }

    private static byte[] digest(WireReader in) throws io.riptide.core.wire.WireException {
        byte[] d = in.bytes(DIGEST_BYTES);
        if (d.length != DIGEST_BYTES) {
            throw new io.riptide.core.wire.WireException("a body digest is " + DIGEST_BYTES + " bytes, got " + d.length);
        }
        return d;
    }

    /** Registers these messages in {@code codec} (tags 30–49). */
    public static void register(MessageCodec codec) {
        codec.register(30, Publish.class, (m, out) -> out.id(m.guid()).handle(m.replica()).bool(m.withdraw()).i64(m.ackId()),
                in -> new Publish(in.id(), in.handle(), in.bool(), in.i64()));
        codec.register(39, PublishAck.class, (m, out) -> out.id(m.guid()).i64(m.ackId()),
                in -> new PublishAck(in.id(), in.i64()));
        codec.register(31, Locate.class,
                (m, out) -> out.id(m.guid()).handle(m.requester()).i64(m.requestId()).u16(m.ttl()).u16(m.hops())
                        .u8(m.bloomHops()).message(codec, m.payload()).bool(m.rootChecked()),
                in -> new Locate(in.id(), in.handle(), in.i64(), in.u16(), in.u16(), in.u8(), in.message(codec), in.bool()));
        codec.register(32, ObjectDelivery.class,
                (m, out) -> out.message(codec, m.request()),
                in -> {
                    if (!(in.message(codec) instanceof Locate l)) {
                        throw new io.riptide.core.wire.WireException("object delivery without a locate");
                    }
                    return new ObjectDelivery(l);
                });
        codec.register(33, Found.class, (m, out) -> out.i64(m.requestId()).id(m.guid()).u16(m.hops()),
                in -> new Found(in.i64(), in.id(), in.u16()));
        codec.register(34, LocateFailed.class,
                (m, out) -> out.i64(m.requestId()).id(m.guid()).u8(m.reason().ordinal()).u16(m.hops()),
                in -> {
                    long id = in.i64();
                    Id guid = in.id();
                    int reason = in.u8();
                    if (reason >= FailureReason.values().length) {
                        throw new io.riptide.core.wire.WireException("unknown failure reason " + reason);
                    }
                    return new LocateFailed(id, guid, FailureReason.values()[reason], in.u16());
                });
        codec.register(35, WhereIs.class, (m, out) -> { }, in -> new WhereIs());
        codec.register(37, ReadReplica.class, (m, out) -> { }, in -> new ReadReplica());
        codec.register(38, ReplicaRead.class, (m, out) -> out.i64(m.requestId()).id(m.guid()).u16(m.hops()).bytes(m.data()),
                in -> new ReplicaRead(in.i64(), in.id(), in.u16(), in.bytes(MAX_READ_BYTES)));
        codec.register(42, ReadHead.class, (m, out) -> { }, in -> new ReadHead());
        codec.register(43, HeadRead.class, (m, out) -> out.i64(m.requestId()).id(m.guid()).u16(m.hops()).bytes(m.head()),
                in -> new HeadRead(in.i64(), in.id(), in.u16(), in.bytes(MAX_HEAD_BYTES)));
        codec.register(44, ReadBody.class, (m, out) -> out.i64(m.requestId()).bytes(m.digest()),
                in -> new ReadBody(in.i64(), digest(in)));
        codec.register(45, BodyRead.class,
                (m, out) -> out.i64(m.requestId()).bytes(m.digest()).bool(m.found()).bytes(m.body()),
                in -> new BodyRead(in.i64(), digest(in), in.bool(), in.bytes(MAX_READ_BYTES)));
        codec.register(40, ListReplicas.class, (m, out) -> out.id(m.guid()).handle(m.requester()).i64(m.requestId()),
                in -> new ListReplicas(in.id(), in.handle(), in.i64()));
        codec.register(41, ReplicaList.class,
                (m, out) -> out.i64(m.requestId()).id(m.guid()).list(m.replicas(), WireWriter::handle),
                in -> new ReplicaList(in.i64(), in.id(), in.list(MAX_POINTERS, WireReader::handle)));
        codec.register(46, Rivals.class,
                (m, out) -> out.i64(m.requestId()).id(m.guid()).u16(m.hops()).list(m.replicas(), WireWriter::handle),
                in -> new Rivals(in.i64(), in.id(), in.u16(), in.list(MAX_RIVALS, WireReader::handle)));
        codec.register(36, PointerCopy.class, (m, out) -> out.list(m.pointers(), LocationMessages::pointer),
                in -> new PointerCopy(in.list(MAX_POINTERS, LocationMessages::pointer)));
    }
}
