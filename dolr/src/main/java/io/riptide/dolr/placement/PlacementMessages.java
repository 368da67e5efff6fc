package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;
import io.riptide.core.wire.WireReader;
import io.riptide.core.wire.WireWriter;
import io.riptide.dolr.location.LocationMessages;
import java.util.List;

/** The messages of the replica-placement primitive. */
public final class PlacementMessages {
    private PlacementMessages() {
    }

    /** Routed toward {@code guid}'s root; the node {@code climb} hops up (or the root) creates a replica. */
    public record Place(Id guid, int climb, NodeHandle requester, long requestId) implements WireMessage {
    }

    /** Tells the requester of a placement where the replica now is, or why it could not be made. */
    public record Placed(long requestId, Id guid, boolean ok, int hops, String reason) implements WireMessage {
    }

    /** Most holders a {@link Replicate} names. */
    public static final int MAX_HOLDERS = 16;

    /**
     * Asks the receiver to copy {@code guid} from its nearest replica and hold it (see {@code Replication}),
     * unless one of {@code holders} (nodes that hold a copy, or were just given one) is in its local area.
     */
    public record Replicate(Id guid, long requestId, List<NodeHandle> holders) implements WireMessage {
        public Replicate {
            holders = List.copyOf(holders.subList(0, Math.min(holders.size(), MAX_HOLDERS)));
        }
    }

    /** The answer to {@link Replicate}. */
    public record Replicated(long requestId, Id guid, boolean ok, String reason) implements WireMessage {
    }

    /** Asks the receiver to drop the replica of {@code guid} it copied at the sender's asking. */
    public record Retire(Id guid) implements WireMessage {
    }

    /** Most targets one {@link DistancesRequest} names. */
    public static final int MAX_TARGETS = 32;

    /** Asks the receiver for its round trip to each of {@code targets} (it probes those it has not measured). */
    public record DistancesRequest(long requestId, List<NodeHandle> targets) implements WireMessage {
        public DistancesRequest {
            targets = List.copyOf(targets.subList(0, Math.min(targets.size(), MAX_TARGETS)));
        }
    }

    /** The answer to {@link DistancesRequest}: a round trip in microseconds per target, in order, -1 where none answered. */
    public record Distances(long requestId, List<Long> rttMicros) implements WireMessage {
        public Distances {
            rttMicros = List.copyOf(rttMicros);
        }
    }

    /**
     * A local-area neighbour's last copy of {@code guid} (the bytes its store held), which it had to
     * evict: hold it as a replica if that evicts no last copy of the receiver's own, else drop it (see
     * {@code MasterForwarding}). {@code passes}: how many times this copy has been forwarded, this
     * time included. {@code treeParent}: the sender's parent in the object's dissemination tree (none
     * or one), which the receiver attaches to, so that the copy hears the object's updates.
     */
    public record ForwardedReplica(Id guid, int passes, byte[] data, List<NodeHandle> treeParent) implements WireMessage {
    }

    /** Registers these messages in {@code codec} (tags 60–69). */
    public static void register(MessageCodec codec) {
        codec.register(60, Place.class,
                (m, out) -> out.id(m.guid()).u16(m.climb()).handle(m.requester()).i64(m.requestId()),
                in -> new Place(in.id(), in.u16(), in.handle(), in.i64()));
        codec.register(63, Placed.class,
                (m, out) -> out.i64(m.requestId()).id(m.guid()).bool(m.ok()).u16(m.hops()).string(m.reason()),
                in -> new Placed(in.i64(), in.id(), in.bool(), in.u16(), in.string(1024)));
        codec.register(64, Replicate.class, (m, out) -> out.id(m.guid()).i64(m.requestId()).list(m.holders(), WireWriter::handle),
                in -> new Replicate(in.id(), in.i64(), in.list(MAX_HOLDERS, WireReader::handle)));
        codec.register(65, Replicated.class,
                (m, out) -> out.i64(m.requestId()).id(m.guid()).bool(m.ok()).string(m.reason()),
                in -> new Replicated(in.i64(), in.id(), in.bool(), in.string(1024)));
        codec.register(66, Retire.class, (m, out) -> out.id(m.guid()), in -> new Retire(in.id()));
        codec.register(67, DistancesRequest.class, (m, out) -> out.i64(m.requestId()).list(m.targets(), WireWriter::handle),
                in -> new DistancesRequest(in.i64(), in.list(MAX_TARGETS, WireReader::handle)));
        codec.register(68, Distances.class, (m, out) -> out.i64(m.requestId()).list(m.rttMicros(), WireWriter::i64),
                in -> new Distances(in.i64(), in.list(MAX_TARGETS, WireReader::i64)));
        codec.register(69, ForwardedReplica.class,
                (m, out) -> out.id(m.guid()).u8(m.passes()).bytes(m.data()).list(m.treeParent(), WireWriter::handle),
                in -> new ForwardedReplica(in.id(), in.u8(), in.bytes(LocationMessages.MAX_READ_BYTES), in.list(1, WireReader::handle)));
    }
}
