package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.ReplicaHead;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocationMessages.BodyRead;
import io.riptide.dolr.location.LocationMessages.ReadBody;
import io.riptide.dolr.store.OnLoop;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Copies a replica to this node from the nearest one, digest first (DTD): it reads the replica's
 * head (the certificate with the body's SHA-256 and length) and fetches the body only if this node
 * holds no body with that digest; a body that arrives is stored only if its SHA-256, computed here, is
 * the one the head announced. A replica that lost the body meanwhile is read whole instead.
 * Also answers other nodes' {@link ReadBody} from this node's store. Every copy path (placement,
 * replication on request) goes through here.
 */
public final class ReplicaCopier {
    /** How a node reads something of the nearest replica (the result carries what was read). */
    @FunctionalInterface
    public interface Reader {
        void read(Id guid, Consumer<LocateResult> done);
    }

    /** How a node reads a whole replica from a chosen replica ({@code OverlayNode.readAt}). */
    @FunctionalInterface
    public interface ReaderAt {
        void read(NodeHandle replica, Id guid, Consumer<LocateResult> done);
    }

    /** How a copy ended: {@code source} is the replica copied from (null if none was). */
    public record Copy(Id guid, boolean stored, NodeHandle source, boolean bodySkipped, String reason) {
    }

    /** What digest-first copies did, for tests and status pages. */
    public record Stats(long copies, long bodiesSkipped, long bodiesFetched, long bodiesRefused, long bodyBytesReceived,
                        long wholeReads) {
    }

    private record BodyAnswer(NodeHandle from, BodyRead read) {
    }

    private final Env env;
    private final ContentStore store;
    private final Reader readHead;
    private final ReaderAt readWhole;
    private final Duration deadline;
    private final PendingRequests<BodyAnswer> bodies;
    private long copies;
    private long bodiesSkipped;
    private long bodiesFetched;
    private long bodiesRefused;
    private long bodyBytesReceived;
    private long wholeReads;

    /**
     * A copier into {@code store}: {@code readHead} locates the nearest replica with a {@code ReadHead}
     * payload, {@code readWhole} reads a whole replica from a given one (the fallback).
     */
    public ReplicaCopier(Env env, ContentStore store, Reader readHead, ReaderAt readWhole, Duration deadline) {
        this.env = env;
        this.store = store;
        this.readHead = readHead;
        this.readWhole = readWhole;
        this.deadline = deadline;
        this.bodies = new PendingRequests<>(env);
    }

    /** Copies {@code guid} here from its nearest replica; {@code done} hears whether it is now held. */
    public void copy(Id guid, Consumer<Copy> done) {
        readHead.read(guid, r -> {
            if (!r.found() || r.data() == null) {
                done.accept(new Copy(guid, false, null, false, "no replica to copy from: " + r.failure()));
                return;
            }
            ReplicaHead head = ReplicaHead.fromBytes(r.data());
            if (head == null) {
                done.accept(new Copy(guid, false, null, false, "the replica sent a malformed head"));
                return;
            }
            if (store.holdsBody(head.digest()) && store.putHead(guid, head)) {
                copies++;
                bodiesSkipped++;
                done.accept(new Copy(guid, true, r.replica(), true, "copied; body already held"));
                return;
            }
            NodeHandle source = r.replica();
            long id = bodies.add(deadline, answer -> onBody(guid, head, source, answer, done), () -> null);
            send(source, new ReadBody(id, head.digest()));
        });
    }

    private void onBody(Id guid, ReplicaHead head, NodeHandle source, BodyAnswer answer, Consumer<Copy> done) {
        if (answer == null) {
            done.accept(new Copy(guid, false, null, false, "the replica did not send the body before the deadline"));
            return;
        }
        BodyRead b = answer.read();
        if (!answer.from().id().equals(source.id()) || !Arrays.equals(b.digest(), head.digest())) {
            bodiesRefused++;
            done.accept(new Copy(guid, false, null, false, "a body answer that is not the one asked for"));
            return;
        }
        if (!b.found()) {
            wholeReads++; // the body left the replica meanwhile: read the replica whole
            readWhole.read(source, guid, whole -> {
                if (!whole.found() || whole.data() == null || !store.put(guid, whole.data())) {
                    done.accept(new Copy(guid, false, null, false, "no replica to copy from: " + whole.failure()));
                } else {
                    copies++;
                    done.accept(new Copy(guid, true, whole.replica(), false, "copied whole"));
                }
            });
            return;
        }
        bodyBytesReceived += b.body().length;
        if (!store.putTransferred(guid, head, b.body())) {
            // Either its SHA-256 is not the announced one (never indexed), or the store refused it.
            bodiesRefused++;
            done.accept(new Copy(guid, false, null, false, "body refused: not the announced digest, or no room"));
            return;
        }
        copies++;
        bodiesFetched++;
        done.accept(new Copy(guid, true, source, false, "copied"));
    }

    /** Another node asks for a body this node announced in a head. */
    public void onReadBody(NodeHandle from, ReadBody request) {
        OnLoop.then(env, store.body(request.digest()), body -> send(from,
                new BodyRead(request.requestId(), request.digest(), body != null, body == null ? new byte[0] : body)));
    }

    /** The answer to one of this node's body requests. */
    public void onBodyRead(NodeHandle from, BodyRead read) {
        bodies.complete(read.requestId(), new BodyAnswer(from, read));
    }

    private void send(NodeHandle to, io.riptide.core.wire.WireMessage m) {
        if (to.id().equals(env.self().id())) {
            if (m instanceof ReadBody rb) {
                onReadBody(to, rb);
            } else if (m instanceof BodyRead br) {
                onBodyRead(to, br);
            }
        } else {
            env.send(to.address(), m);
        }
    }

    /** Counters of the copies made so far. */
    public Stats stats() {
        return new Stats(copies, bodiesSkipped, bodiesFetched, bodiesRefused, bodyBytesReceived, wholeReads);
    }
}
