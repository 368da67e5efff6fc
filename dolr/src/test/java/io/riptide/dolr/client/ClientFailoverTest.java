package io.riptide.dolr.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.client.ClientMessages.ClientRead;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.transport.TcpTransport;
import io.riptide.dolr.transport.TransportConfig;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real overlay client over TCP whose nearest access node crashes with a read in flight: the closed
 * connection marks the node down at once, the read goes on to the next access node then (not at a hedge
 * delay or the deadline), and the node is used again once it is back and answers a ping. The access nodes
 * are test doubles over the real transport: the near one sits on reads, the far one answers them.
 */
@Timeout(60)
class ClientFailoverTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final byte[] FROM_FAR = {2};
    private static final byte[] FROM_NEAR = {1};

    private final NioEventLoopGroup io = new NioEventLoopGroup(2);
    private final DefaultEventLoopGroup loops = new DefaultEventLoopGroup(2);

    /** An access node double: answers pings (after {@code pongDelay}) and reads with {@code data}, or sits on reads if null. */
    private final class Fake implements AutoCloseable {
        final SigningKey key;
        final TcpTransport transport;
        final AtomicInteger reads = new AtomicInteger();

        Fake(SigningKey key, int port, Duration pongDelay, byte[] data) {
            this.key = key;
            EventLoop loop = loops.next();
            TcpTransport[] self = new TcpTransport[1];
            MessageHandler handler = (from, m) -> {
                if (m instanceof Ping ping) {
                    loop.schedule(() -> self[0].send(from.address(), new Pong(ping.nonce())), pongDelay.toNanos(), TimeUnit.NANOSECONDS);
                } else if (m instanceof ClientRead read) {
                    reads.incrementAndGet();
                    if (data != null) {
                        self[0].send(from.address(), new ClientReadReply(read.requestId(), read.guid(), null, 1, data));
                    }
                }
            };
            // A port just closed is free again at its I/O loop's next select: retry for a bounded moment.
            for (int attempt = 0; self[0] == null; attempt++) {
                try {
                    self[0] = new TcpTransport(key, new NodeAddress(HOST, port), DolrCodec.create(), handler, loop, io,
                            TransportConfig.defaults());
                } catch (UncheckedIOException e) {
                    if (port == 0 || attempt >= 50) {
                        throw e;
                    }
                    sleep(20);
                }
            }
            this.transport = self[0];
        }

        NodeHandle handle() {
            return transport.self();
        }

        @Override
        public void close() {
            transport.close();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void tearDown() {
        io.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        await(what, condition, () -> "");
    }

    private static void await(String what, BooleanSupplier condition, java.util.function.Supplier<Object> state)
            throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out after " + WAIT + " waiting for: " + what + " " + state.get());
            }
            Thread.sleep(10);
        }
    }

    private static List<NodeHandle> live(OverlayClient client) {
        try {
            return client.accessNodes().get(5, TimeUnit.SECONDS).stream().map(AccessNodes.Access::node).toList();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static AccessFigures figures(OverlayClient client) throws Exception {
        CompletableFuture<AccessFigures> f = new CompletableFuture<>();
        client.env().execute(() -> f.complete(client.access().accessFigures()));
        return f.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aCrashedAccessNodesReadGoesOnAtOnceAndTheNodeIsUsedAgainOnceBack() throws Exception {
        SigningKey nearKey = SigningKey.generate(new SecureRandom());
        Fake near = new Fake(nearKey, 0, Duration.ZERO, null);
        int nearPort = near.transport.localAddress().port();
        // Far: its pongs held back 300 ms, so it is measured the farther even though a first ping also pays for a handshake.
        try (Fake far = new Fake(SigningKey.generate(new SecureRandom()), 0, Duration.ofMillis(300), FROM_FAR);
                OverlayClient client = OverlayClient.start(SigningKey.generate(new SecureRandom()),
                        List.of(near.transport.localAddress(), far.transport.localAddress()), Duration.ofSeconds(20))) {
            await("both access nodes found, the near one first", () -> live(client).equals(List.of(near.handle(), far.handle())),
                    () -> live(client));

            CompletableFuture<ObjectRead> read = client.read(Id.hash("an object"), 8);
            await("the read reached the near node", () -> near.reads.get() == 1);
            near.close(); // as a crash: its connections close

            ObjectRead r = read.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertTrue(r.found());
            assertArrayEquals(FROM_FAR, r.data(), "answered through the far node");
            AccessFigures f = figures(client);
            assertEquals(1, f.readsResent(), "sent on when the connection closed");
            assertEquals(0, f.readsHedged(), "not hedged: the hedge delay (a quarter of the 20 s deadline, nothing measured yet) had not come");
            assertEquals(List.of(near.handle()), client.downNodes().get(5, TimeUnit.SECONDS));
            assertFalse(live(client).contains(near.handle()), "no longer listed as a live access node");

            // Back on the same port with the same key: a background ping finds it, and it is used again.
            try (Fake back = new Fake(nearKey, nearPort, Duration.ZERO, FROM_NEAR)) {
                await("the node back in use, nearest again", () -> !live(client).isEmpty() && live(client).get(0).equals(back.handle()));
                assertTrue(client.downNodes().get(5, TimeUnit.SECONDS).isEmpty());
                assertArrayEquals(FROM_NEAR, client.read(Id.hash("an object"), 8).get(WAIT.toSeconds(), TimeUnit.SECONDS).data());
            }
        } finally {
            near.close();
        }
    }
}
