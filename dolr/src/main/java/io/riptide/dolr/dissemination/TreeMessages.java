package io.riptide.dolr.dissemination;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.core.wire.WireReader;
import io.riptide.dolr.delta.ContentDigest;
import io.riptide.dolr.location.LocationMessages;
import java.util.List;

/** The messages of dissemination trees: attaching, detaching, and what flows down from the root. */
public final class TreeMessages {
    /** Deepest tree a path may describe. */
    public static final int MAX_DEPTH = 64;

    private TreeMessages() {
    }

    /**
     * A replica holder (holding data as new as {@code stamp}) asks to become a child of the receiver
     * in {@code guid}'s tree. {@code digest}, the SHA-256 of the data it holds (or empty), lets a
     * parent whose data is the same say so instead of sending it again: a new replica attaches to the
     * member it just copied from, whose data it already has.
     */
    public record Attach(Id guid, long stamp, byte[] digest) implements WireMessage {
        /** An attach that names no data held. */
        public Attach(Id guid, long stamp) {
            this(guid, stamp, new byte[0]);
        }
    }

    /**
     * The answer to {@link Attach}: accepted (with the parent's path from the root, itself last, and
     * its current data if newer than the child's {@code stamp}), or refused (the asker is an ancestor,
     * or the receiver is no member). {@code same}: the parent's data at {@code stamp} is what the
     * attach's digest names, so none is sent and the child takes the stamp for the data it holds.
     */
    public record Attached(Id guid, boolean accepted, List<NodeHandle> path, long stamp, byte[] data, boolean same)
            implements WireMessage {
    }

    /**
     * The sender leaves the receiver's side in {@code guid}'s tree: a child leaving its parent (its
     * replica was evicted, or it moved), or a parent leaving its children, which re-attach at once.
     */
    public record Detach(Id guid) implements WireMessage {
    }

    /**
     * New data for the object, flowing down from the root. {@code stamp} orders updates (a member
     * ignores one not newer than what it holds); {@code path} is the sender's path from the root.
     * {@code digest} is the SHA-256 of the new data. With an empty {@code base}, {@code body} is the
     * new data itself; otherwise it is a delta ({@link io.riptide.dolr.delta.DeltaDecoder}) against
     * the version whose SHA-256 is {@code base}, which a receiver holding anything else refuses.
     */
    public record Update(Id guid, long stamp, List<NodeHandle> path, byte[] digest, byte[] base, byte[] body) implements WireMessage {
        /** Whether the body is a delta rather than the full data. */
        public boolean isDelta() {
            return base.length > 0;
        }
    }

    /** Most lines one {@link Beats} carries; a parent with more to say sends several. */
    public static final int MAX_BEAT_LINES = 512;

    /**
     * A parent's periodic beat to one child node, one message whatever the number of trees they
     * share: the link is alive (a member whose parent falls silent re-attaches), plus a line for each
     * shared tree that changed since the last beat or whose turn it is to be listed (each is listed
     * at least once every {@link Dissemination#LISTING_SLICES} beats).
     */
    public record Beats(List<TreeBeat> lines) implements WireMessage {
    }

    /** One tree's line in {@link Beats}: the sender's stamp and its path from the root, itself last. */
    public record TreeBeat(Id guid, long stamp, List<NodeHandle> path) {
    }

    /**
     * Looking for a member near {@code origin}: a member answers {@link Here} to the origin; a
     * non-member passes it on to its own nearest neighbours while {@code hops} remain.
     */
    public record Seek(Id guid, NodeHandle origin, int hops) implements WireMessage {
    }

    /** The answer to {@link Seek}: the sender is an attached member of {@code guid}'s tree. */
    public record Here(Id guid) implements WireMessage {
    }

    /**
     * A node that a {@link Seek} passed through knows of another member that sought near it not long
     * ago: the seek's origin may probe that member directly (a {@link Seek} of no hops) to measure it.
     */
    public record Nearby(Id guid, NodeHandle member) implements WireMessage {
    }

    /** Deepest a seek goes: to the neighbours of the origin's neighbours. */
    public static final int MAX_SEEK_HOPS = 1;

    /** A SHA-256 field: exactly {@link ContentDigest#BYTES} long, or empty where {@code optional}. */
    private static byte[] digest(WireReader in, boolean optional) throws WireException {
        byte[] d = in.bytes(ContentDigest.BYTES);
        if (d.length != ContentDigest.BYTES && !(optional && d.length == 0)) {
            throw new WireException("digest of " + d.length + " bytes");
        }
        return d;
    }

    private static int seekHops(int hops) throws WireException {
        if (hops > MAX_SEEK_HOPS) {
            throw new WireException("seek of " + hops + " hops");
        }
        return hops;
    }

    /** Registers these messages in {@code codec} (tags 90–99; 94, the per-tree beat of wire version 5 and earlier, is retired). */
    public static void register(MessageCodec codec) {
        codec.register(90, Attach.class, (m, out) -> out.id(m.guid()).i64(m.stamp()).bytes(m.digest()),
                in -> new Attach(in.id(), in.i64(), digest(in, true)));
        codec.register(91, Attached.class,
                (m, out) -> out.id(m.guid()).bool(m.accepted()).list(m.path(), (w, h) -> w.handle(h)).i64(m.stamp()).bytes(m.data())
                        .bool(m.same()),
                in -> new Attached(in.id(), in.bool(), in.list(MAX_DEPTH, r -> r.handle()), in.i64(),
                        in.bytes(LocationMessages.MAX_READ_BYTES), in.bool()));
        codec.register(92, Detach.class, (m, out) -> out.id(m.guid()), in -> new Detach(in.id()));
        codec.register(93, Update.class,
                (m, out) -> out.id(m.guid()).i64(m.stamp()).list(m.path(), (w, h) -> w.handle(h))
                        .bytes(m.digest()).bytes(m.base()).bytes(m.body()),
                in -> new Update(in.id(), in.i64(), in.list(MAX_DEPTH, r -> r.handle()), digest(in, false), digest(in, true),
                        in.bytes(LocationMessages.MAX_READ_BYTES)));
        codec.register(95, Seek.class, (m, out) -> out.id(m.guid()).handle(m.origin()).u8(m.hops()),
                in -> new Seek(in.id(), in.handle(), seekHops(in.u8())));
        codec.register(96, Here.class, (m, out) -> out.id(m.guid()), in -> new Here(in.id()));
        codec.register(97, Nearby.class, (m, out) -> out.id(m.guid()).handle(m.member()), in -> new Nearby(in.id(), in.handle()));
        codec.register(98, Beats.class,
                (m, out) -> out.list(m.lines(), (w, b) -> w.id(b.guid()).i64(b.stamp()).list(b.path(), (p, h) -> p.handle(h))),
                in -> new Beats(in.list(MAX_BEAT_LINES, r -> new TreeBeat(r.id(), r.i64(), r.list(MAX_DEPTH, p -> p.handle())))));
    }
}
