package io.riptide.dolr.server;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.riptide.core.id.Id;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.real.RealEnv;
import io.riptide.core.stage.StageMetrics;
import io.riptide.core.stage.Stages;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.store.DiskStorage;
import io.riptide.dolr.store.ReplicaStorage;
import io.riptide.dolr.transport.TcpTransport;
import io.riptide.dolr.transport.TransportMetrics;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one {@link OverlayNode} for real: its own event loop, a TCP transport, SEDA stages and a
 * {@link RealEnv}. Every method is thread-safe; those that touch the node hop onto its loop and
 * answer with a future.
 *
 * <p>Several servers may share one event loop group, epoll or NIO (each takes one loop of it for its
 * node and uses the group for I/O), so many nodes can run in one process on a few threads.
 */
public final class OverlayServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OverlayServer.class);
    /** How often neighbour changes are checked for the log. */
    private static final long MEMBERSHIP_LOG_SECONDS = 5;
    /** Threads of the group a server creates for itself: one for the node, one more for I/O. */
    private static final int OWN_THREADS = 2;
    /** How often the loop checks whether the node has joined; the node has no upcall for it. */
    private static final long JOIN_POLL_MILLIS = 10;
    /** Bound on start-up work on the loop and on shutting down an owned group. */
    private static final long LOOP_WAIT_SECONDS = 10;
    /** How long closing waits for the goodbye notices to reach the sockets. */
    private static final Duration GOODBYE_WAIT = Duration.ofMillis(500);

    private final ServerSettings settings;
    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final EventLoop loop;
    /** The node's disk store, opened before the node (the rebuild blocks, so not on the loop); null: in memory. */
    private final DiskStorage disk;
    private final Stages stages;
    private final TcpTransport transport;
    private final StoppableEnv env;
    private final CompletableFuture<Void> joined = new CompletableFuture<>();
    private final Set<CompletableFuture<?>> pending = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set once on the loop, read only on the loop. */
    private OverlayNode node;
    /** The neighbour-change log's timer, cancelled on close (a shared loop outlives the server). */
    private volatile java.util.concurrent.Future<?> membershipLog;

    private OverlayServer(ServerSettings settings, EventLoopGroup group, boolean ownsGroup) {
        this.settings = settings;
        this.group = group;
        this.ownsGroup = ownsGroup;
        this.loop = group.next();
        this.stages = Stages.start(settings.stages());
        try {
            this.disk = settings.storeSettings().map(DiskStorage::open).orElse(null);
        } catch (RuntimeException e) {
            stages.close();
            throw e;
        }
        try {
            this.transport = new TcpTransport(settings.key(), settings.listen(), settings.codec(), this::deliver, loop,
                    group, settings.transport());
        } catch (RuntimeException e) {
            stages.close();
            if (disk != null) {
                disk.close();
            }
            throw e;
        }
        this.env = new StoppableEnv(new RealEnv(loop, transport.self(), transport, stages,
                new SplittableRandom(new SecureRandom().nextLong())));
    }

    /** Starts a node on a group of its own, of the process's transport; {@link #close} shuts the group down. */
    public static OverlayServer start(ServerSettings settings) {
        EventLoopGroup own = NettyTransport.current().newGroup(OWN_THREADS, new DefaultThreadFactory("riptide-node"));
        try {
            return start(settings, own, true);
        } catch (RuntimeException e) {
            own.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
    }

    /**
     * Starts a node on one loop of {@code shared}, which it also uses for I/O; the caller owns the
     * group and shuts it down after closing its servers.
     */
    public static OverlayServer start(ServerSettings settings, EventLoopGroup shared) {
        return start(settings, shared, false);
    }

    private static OverlayServer start(ServerSettings settings, EventLoopGroup group, boolean ownsGroup) {
        OverlayServer server = new OverlayServer(settings, group, ownsGroup);
        try {
            server.onLoop(server::boot).get(LOOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.close();
            throw new IllegalStateException("interrupted while starting the node", e);
        } catch (ExecutionException | TimeoutException e) {
            server.close();
            throw new IllegalStateException("the node failed to start", e);
        }
        return server;
    }

    private Void boot() {
        ReplicaStorage storage = disk != null ? disk
                : ReplicaStorage.inMemory(settings.dolr().maxReplicaBytes(), settings.dolr().maxReplicas());
        node = new OverlayNode(env, settings.dolr(), storage, settings.application());
        settings.bootstrapAddress().ifPresentOrElse(node::join, node::startAlone);
        watchJoin();
        return null;
    }

    private void watchJoin() {
        if (env.isStopped()) {
            return;
        }
        if (node.isJoined()) {
            joined.complete(null);
            LOG.info("node {} at {} {} (transport: {})", node.self().id().shortHex(), address(), settings.bootstrapAddress()
                    .map(b -> "joined the overlay through " + b).orElse("started a new overlay"), nettyTransport());
            MembershipLog membership = new MembershipLog();
            membershipLog = loop.scheduleAtFixedRate(() -> {
                if (!env.isStopped()) {
                    membership.check(node);
                }
            }, 0, MEMBERSHIP_LOG_SECONDS, TimeUnit.SECONDS);
        } else {
            loop.schedule(this::watchJoin, JOIN_POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** The transport's handler: runs on the node's loop. */
    private void deliver(NodeHandle from, WireMessage message) {
        // Peers may reach a fixed port before the node exists, or after it closed; both are lost traffic.
        if (node != null && !env.isStopped()) {
            node.onMessage(from, message);
        }
    }

    // ---- identity ------------------------------------------------------------------------------

    /** The node's ID and the address it listens on (with the actual port). */
    public NodeHandle self() {
        return transport.self();
    }

    /** Where the node listens, with the actual port. */
    public NodeAddress address() {
        return transport.localAddress();
    }

    /** What this server was started with. */
    public ServerSettings settings() {
        return settings;
    }

    // ---- access to the node ----------------------------------------------------------------------

    /**
     * Runs {@code query} on the node's loop and answers with its result. The future fails if the
     * server is closed before the query ran.
     */
    public <T> CompletableFuture<T> call(Function<OverlayNode, T> query) {
        return onLoop(() -> query.apply(node));
    }

    /** Completes when the node has joined an overlay (or started one); fails if the server closes first. */
    public CompletableFuture<Void> joined() {
        return joined.copy();
    }

    /** Waits up to {@code timeout} for the node to join; false if it has not by then or the server closed. */
    public boolean awaitJoined(Duration timeout) throws InterruptedException {
        try {
            joined.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /** Stores {@code data} as a replica of {@code guid} on this node and publishes it; false if it does not fit. */
    public CompletableFuture<Boolean> storeReplica(Id guid, byte[] data) {
        return call(n -> n.storeReplica(guid, data));
    }

    /**
     * Stores and publishes a replica like {@link #storeReplica(Id, byte[])}, completing once the
     * object's root has confirmed the publish (true: from then on every node can find it), or with
     * false if it did not fit or the root never confirmed.
     */
    public CompletableFuture<Boolean> storeReplicaRooted(Id guid, byte[] data) {
        return withCallback(done -> {
            if (!node.storeReplica(guid, data, done)) {
                done.accept(false);
            }
        });
    }

    /** Locates the nearest replica of {@code guid} with the node's default hop budget and Bloom setting. */
    public CompletableFuture<LocateResult> locate(Id guid) {
        return locate(guid, settings.dolr().defaultTtl(), settings.dolr().bloomEnabled());
    }

    /** Locates the nearest replica of {@code guid} within {@code ttl} hops; see {@link OverlayNode#locate}. */
    public CompletableFuture<LocateResult> locate(Id guid, int ttl, boolean useBloom) {
        return withCallback(done -> node.locate(guid, ttl, useBloom, done));
    }

    /** A snapshot of the node's state and its transport's counters. */
    public CompletableFuture<NodeStatus> status() {
        return call(n -> new NodeStatus(n.self().id(), n.self().address(), n.isJoined(), n.leafSet().size(),
                n.routingTable().all().size(), n.peers().size(), n.replicas().objects(), n.pointers().size(),
                n.failuresDetected(), n.departuresHeard(), transport.metrics()));
    }

    /** The transport's counters; readable from any thread. */
    public TransportMetrics transportMetrics() {
        return transport.metrics();
    }

    /**
     * The wire version of this node's authenticated link to {@code peer}, or empty if it has none:
     * the highest version both speak, agreed in the link's handshake. Readable from any thread.
     */
    public OptionalInt linkVersion(NodeAddress peer) {
        return transport.linkVersion(peer);
    }

    /** The Netty transport its loop and sockets run on (its group's: epoll or NIO). */
    public NettyTransport nettyTransport() {
        return NettyTransport.of(group);
    }

    /** The node's stages, by name. */
    public Map<String, StageMetrics> stageMetrics() {
        return stages.metrics();
    }

    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Tells the node's neighbours it is leaving, then gives the notices up to {@link #GOODBYE_WAIT} to
     * reach the sockets: peers then drop it at once instead of timing out on it (a restart, a one-shot
     * command). Best effort; on the loop itself it cannot wait, so the notices may not get out.
     */
    private void sayGoodbye() {
        if (loop.inEventLoop()) {
            if (node != null && !env.isStopped()) {
                node.leave();
            }
            return;
        }
        try {
            loop.submit(() -> {
                if (node != null && !env.isStopped()) {
                    node.leave();
                }
            }).get(GOODBYE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
            transport.drain(GOODBYE_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            // The loop is gone or stuck: leave without saying so; peers notice the silence.
        }
    }

    private <T> CompletableFuture<T> onLoop(Callable<T> task) {
        CompletableFuture<T> result = track(new CompletableFuture<>());
        try {
            loop.execute(() -> {
                if (env.isStopped()) {
                    result.completeExceptionally(closedFailure());
                    return;
                }
                try {
                    result.complete(task.call());
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(closedFailure());
        }
        return result;
    }

    /** Starts an operation on the loop that answers through a callback on the loop. */
    private <T> CompletableFuture<T> withCallback(Consumer<Consumer<T>> operation) {
        CompletableFuture<T> result = track(new CompletableFuture<>());
        onLoop(() -> {
            operation.accept(result::complete);
            return null;
        }).whenComplete((ignored, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            }
        });
        return result;
    }

    /** Remembers {@code future} until it completes, so {@link #close} can fail it rather than leave it hanging. */
    private <T> CompletableFuture<T> track(CompletableFuture<T> future) {
        pending.add(future);
        future.whenComplete((r, t) -> pending.remove(future));
        if (closed.get()) {
            future.completeExceptionally(closedFailure());
        }
        return future;
    }

    private static IllegalStateException closedFailure() {
        return new IllegalStateException("the overlay server is closed");
    }

    // ---- shutdown --------------------------------------------------------------------------------

    /**
     * Runs the disk store's queued writes and closes it (its checkpoint makes the next start quick),
     * once no task of the stopped node is still running on the loop: on the closing thread, so a
     * loop shared with other nodes does not wait on this one's disk; on the loop only when closed
     * from it.
     */
    private void closeStore() {
        if (disk == null) {
            return;
        }
        if (!loop.inEventLoop()) {
            try {
                // A barrier: a task that began before the stop finishes before the store closes under it.
                loop.submit(() -> { }).get(LOOP_WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
                // The loop is gone or stuck; the store is thread-safe, so close it anyway.
            }
        }
        try {
            disk.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the replica store failed", e);
        }
    }

    /**
     * Stops the node (its timers no longer run, it sends nothing more), closes the transport and the
     * stages, fails unanswered futures, and shuts the group down if the server owns it. Idempotent.
     * First it tells its neighbours it is leaving (waiting up to half a second for the notices to go
     * out), so they route around it at once rather than time out on it.
     */
    @Override
    public void close() {
        stop(true);
    }

    /**
     * Stops the node as a crash would: no goodbye, so peers find out by its silence. For fault
     * injection; a node shutting down on purpose uses {@link #close}.
     */
    public void crash() {
        stop(false);
    }

    private void stop(boolean goodbye) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (goodbye) {
            sayGoodbye();
        }
        // Also ends the join poll: its next run sees the stop and does not reschedule.
        env.stop();
        java.util.concurrent.Future<?> log = membershipLog;
        if (log != null) {
            log.cancel(false);
        }
        transport.close();
        closeStore();
        stages.close();
        IllegalStateException failure = closedFailure();
        joined.completeExceptionally(failure);
        pending.forEach(f -> f.completeExceptionally(failure));
        if (ownsGroup) {
            var terminated = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            if (!loop.inEventLoop()) {
                terminated.awaitUninterruptibly(LOOP_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }
}
