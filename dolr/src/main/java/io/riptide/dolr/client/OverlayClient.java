package io.riptide.dolr.client;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.real.RealEnv;
import io.riptide.core.stage.StageConfig;
import io.riptide.core.stage.Stages;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.transport.TcpTransport;
import io.riptide.dolr.transport.TransportConfig;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real overlay client: {@link AccessNodes} on its own event loop over the TCP transport, with a
 * thread-safe face for the browser proxy's threads. Proves its key on every connection like a node,
 * but never joins. Protocol code that runs beside it (the proxy's cache) uses {@link #env()} and
 * {@link #access()} on the client's loop, with the stages it was started with.
 */
public final class OverlayClient implements AutoCloseable {
    /**
     * How a client is set up beyond its key and seeds.
     *
     * @param listen       the address to listen on and advertise (port 0 for a free one); null: the address its seeds see
     * @param readDeadline how long one read may take before it completes as a timeout
     * @param stages       the SEDA stages its protocol code may hand work to ({@link Env#submit})
     * @param wallClock    what its {@link Env} dates by
     */
    public record Options(NodeAddress listen, Duration readDeadline, List<StageConfig> stages, Clock wallClock) {
        public Options {
            stages = List.copyOf(stages);
        }

        /** No stages, the system clock, listening toward the seeds. */
        public static Options of(Duration readDeadline) {
            return new Options(null, readDeadline, List.of(), Clock.systemUTC());
        }

        public Options listening(NodeAddress address) {
            return new Options(address, readDeadline, stages, wallClock);
        }

        public Options withStages(List<StageConfig> more) {
            return new Options(listen, readDeadline, more, wallClock);
        }

        public Options withClock(Clock clock) {
            return new Options(listen, readDeadline, stages, clock);
        }
    }

    private final EventLoopGroup group;
    private final boolean ownsGroup;
    private final EventLoop loop;
    private final TcpTransport transport;
    private final AccessNodes access;
    private final Duration readDeadline;
    private final Stages stages;
    private final RealEnv env;
    /** Logs attaching and losing the overlay; cancelled on close (a shared loop outlives the client). */
    private final java.util.concurrent.ScheduledFuture<?> attachWatch;

    private OverlayClient(SigningKey key, List<NodeAddress> seeds, EventLoopGroup group, boolean ownsGroup, Options options) {
        this.group = group;
        this.ownsGroup = ownsGroup;
        this.loop = group.next();
        this.readDeadline = options.readDeadline();
        this.stages = Stages.start(options.stages());
        NodeAddress listen = options.listen() != null ? options.listen() : ClientAddress.toward(seeds);
        AccessNodes[] holder = new AccessNodes[1];
        this.transport = new TcpTransport(key, listen, DolrCodec.create(), (from, m) -> holder[0].onMessage(from, m), loop, group,
                TransportConfig.defaults(), address -> holder[0].unreachable(address));
        this.env = new RealEnv(loop, transport.self(), transport, stages, new SplittableRandom(new SecureRandom().nextLong()),
                options.wallClock());
        this.access = new AccessNodes(env, seeds, 3, Duration.ofSeconds(30), readDeadline);
        holder[0] = access;
        loop.execute(access::start);
        AttachLog attachLog = new AttachLog();
        this.attachWatch = loop.scheduleAtFixedRate(() -> attachLog.check(access.active()), 1, 5, TimeUnit.SECONDS);
    }

    /** A client with its own event loop, reading through the nearest of the nodes reachable from {@code seeds}. */
    public static OverlayClient start(SigningKey key, List<NodeAddress> seeds, Duration readDeadline) {
        return start(key, seeds, Options.of(readDeadline));
    }

    /** A client with its own event loop, set up by {@code options}. */
    public static OverlayClient start(SigningKey key, List<NodeAddress> seeds, Options options) {
        return new OverlayClient(key, seeds, NettyTransport.current().newGroup(1), true, options);
    }

    /**
     * A client with its own event loop that listens on and advertises {@code listen} (port 0 for a
     * free one), such as an address on the interface where its seeds are discovered.
     */
    public static OverlayClient start(SigningKey key, NodeAddress listen, List<NodeAddress> seeds, Duration readDeadline) {
        return start(key, seeds, Options.of(readDeadline).listening(listen));
    }

    /** A client on one loop of {@code shared}, which the caller owns. */
    public static OverlayClient start(SigningKey key, List<NodeAddress> seeds, Duration readDeadline, EventLoopGroup shared) {
        return new OverlayClient(key, seeds, shared, false, Options.of(readDeadline));
    }

    /** The client's runtime: its loop, clock, timers and stages. Use it on the loop ({@link Env#execute}). */
    public Env env() {
        return env;
    }

    /** The client's way into the overlay, for protocol code on its loop. */
    public OverlayAccess access() {
        return access;
    }

    /** The client's stages, for status pages. */
    public Stages stages() {
        return stages;
    }

    /** Adds seeds after the start, kept for good; each is measured at once. */
    public void addSeeds(List<NodeAddress> more) {
        List<NodeAddress> copy = List.copyOf(more);
        loop.execute(() -> copy.forEach(access::addSeed));
    }

    /** Adds a seed found on the local network (bounded, see {@link AccessNodes#addDiscovered}); measured at once. */
    public void addDiscoveredSeed(NodeAddress seed) {
        loop.execute(() -> access.addDiscovered(seed));
    }

    /** Drops a seed found on the local network whose service was withdrawn or expired. */
    public void removeDiscoveredSeed(NodeAddress seed) {
        loop.execute(() -> access.removeDiscovered(seed));
    }

    /** The seeds found on the local network and still kept. */
    public CompletableFuture<List<NodeAddress>> discoveredSeeds() {
        CompletableFuture<List<NodeAddress>> f = new CompletableFuture<>();
        loop.execute(() -> f.complete(access.discovered()));
        return f;
    }

    /** Where this client listens, the address it advertises: nodes send their answers here. */
    public NodeAddress address() {
        return transport.self().address();
    }

    /** Reads the nearest replica of {@code guid}; completes on the client's loop. */
    public CompletableFuture<ObjectRead> read(Id guid, int ttl) {
        CompletableFuture<ObjectRead> f = new CompletableFuture<>();
        loop.execute(() -> access.read(guid, ttl, f::complete));
        return f;
    }

    /** How long one {@link #read} may take before it completes as a timeout. */
    public Duration readDeadline() {
        return readDeadline;
    }

    /** Anycasts {@code payload} to the nearest provider of {@code service}; no answer. */
    public void anycast(Id service, WireMessage payload, int ttl) {
        loop.execute(() -> access.anycast(service, payload, ttl));
    }

    /** Anycasts {@code payload} to {@code service}, or {@code fallbackPayload} to {@code fallbackService} if it has no provider. */
    public void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl) {
        loop.execute(() -> access.anycast(service, payload, fallbackService, fallbackPayload, ttl));
    }

    /** The access nodes in use, nearest first. */
    public CompletableFuture<List<AccessNodes.Access>> accessNodes() {
        CompletableFuture<List<AccessNodes.Access>> f = new CompletableFuture<>();
        loop.execute(() -> f.complete(access.active()));
        return f;
    }

    /** The access nodes down now (connection lost, or a read unanswered), pinged again until they answer. */
    public CompletableFuture<List<io.riptide.core.runtime.NodeHandle>> downNodes() {
        CompletableFuture<List<io.riptide.core.runtime.NodeHandle>> f = new CompletableFuture<>();
        loop.execute(() -> f.complete(access.down()));
        return f;
    }

    /** Waits until at least one access node answered, up to {@code timeout}. */
    public boolean awaitAttached(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            try {
                if (!accessNodes().get(1, TimeUnit.SECONDS).isEmpty()) {
                    return true;
                }
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return false;
            }
            Thread.sleep(50);
        }
        return false;
    }

    @Override
    public void close() {
        attachWatch.cancel(false);
        transport.close();
        stages.close();
        if (ownsGroup) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
    }
}
