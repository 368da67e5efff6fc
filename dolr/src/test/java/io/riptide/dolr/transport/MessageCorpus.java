package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.dolr.location.LocationMessages.Locate;
import io.riptide.dolr.location.LocationMessages.ObjectDelivery;
import io.riptide.dolr.location.LocationMessages.WhereIs;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Real overlay messages, as nodes really send them: a small simulated overlay joins, publishes,
 * locates, reads, anycasts, places, leases, builds a dissemination tree and loses a node, and every
 * message it sends is kept (a few of each kind), encoded as a message body. Fuzz tests mutate these,
 * so hostile input starts from the shapes the decoders actually parse.
 */
final class MessageCorpus {
    private static final int PER_KIND = 6;
    private static final int NODES = 48;
    private static final int GROUPS = 4;

    private final MessageCodec codec = DolrCodec.create();
    private final Map<Class<?>, List<byte[]>> bodies = new LinkedHashMap<>();

    private MessageCorpus() {
    }

    /** The corpus of one fixed-seed run. */
    static MessageCorpus record(long seed) {
        MessageCorpus corpus = new MessageCorpus();
        corpus.run(seed);
        return corpus;
    }

    /** The codec the bodies were written with: an overlay node's. */
    MessageCodec codec() {
        return codec;
    }

    /** Every body kept, kinds in the order first seen. */
    List<byte[]> bodies() {
        return bodies.values().stream().flatMap(List::stream).toList();
    }

    /** The simple names of the message kinds seen. */
    Set<String> kinds() {
        Set<String> names = new TreeSet<>();
        bodies.keySet().forEach(c -> names.add(c.getSimpleName()));
        return names;
    }

    /** Keeps {@code message} and, since a node decodes them too, every message nested in it. */
    private void keep(WireMessage message) {
        if (message instanceof Hop h) {
            keep(h.inner());
        } else if (message instanceof Routed r) {
            keep(r.payload());
        } else if (message instanceof Locate l) {
            keep(l.payload());
        } else if (message instanceof ObjectDelivery d) {
            keep(d.request());
        }
        List<byte[]> kept = bodies.computeIfAbsent(message.getClass(), c -> new ArrayList<>());
        if (kept.size() < PER_KIND) {
            ByteBuf buf = Unpooled.buffer();
            try {
                codec.encodeBody(message, buf);
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                kept.add(bytes);
            } finally {
                buf.release();
            }
        }
    }

    private void run(long seed) {
        Simulation sim = new Simulation(seed);
        GroupLatency latency = new GroupLatency(GROUPS);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults(), latency::groupOf);
        overlay.network().tap(this::keep);
        overlay.addAll(IntStream.range(0, NODES).boxed().toList(), Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        settle(overlay, 20);

        Id object = Id.hash("corpus object");
        OverlayNode root = overlay.node(0);
        root.storeReplica(object, "version 1".getBytes(StandardCharsets.UTF_8));
        root.startTree(object, 1);
        Id service = Id.hash("corpus service");
        overlay.node(5).offerService(service);
        settle(overlay, 3);

        for (int v = 1; v < NODES; v += 9) {
            OverlayNode node = overlay.node(v);
            node.locate(object, 16, v % 2 == 0, r -> { });
            node.locate(Id.hash("nobody has this " + v), 16, false, r -> { });
            node.locate(object, 1, false, r -> { });
            node.anycast(service, new WhereIs(), 16, r -> { });
            node.read(object, 16, r -> {
                if (r.found()) {
                    node.storeReplica(object, r.data());
                    node.joinTree(object, r.replica());
                }
            });
        }
        settle(overlay, 3);
        root.publishUpdate(object, "version 2".getBytes(StandardCharsets.UTF_8), 2);
        overlay.node(40).place(object, 1, r -> { });
        overlay.node(41).claim(Id.hash("corpus lease"), Duration.ofSeconds(5), r -> { });
        overlay.node(42).replicateTo(overlay.node(43).self(), object, r -> { });
        settle(overlay, 3);
        overlay.node(42).retireAt(overlay.node(43).self(), object);
        overlay.node(41).release(Id.hash("corpus lease"));
        overlay.node(30).route(Id.hash("routed key"), new WhereIs());
        overlay.node(19).unpublish(object);
        overlay.kill(28);
        settle(overlay, 20);
    }

    private static void settle(SimulatedOverlay overlay, int seconds) {
        overlay.simulation().runFor(Duration.ofSeconds(seconds).toNanos());
    }
}
