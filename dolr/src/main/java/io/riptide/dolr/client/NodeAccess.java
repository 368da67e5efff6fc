package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * An overlay member's own access to the overlay, for a client on the member's host: reads and
 * anycasts start at the node itself, with no access-node hop. The simulator's browser proxies run
 * this way (each on its node's host), and an {@link AccessPoint} serves its remote clients' anycasts
 * through it. Runs on the node's loop.
 */
public final class NodeAccess implements OverlayAccess {
    private final OverlayNode node;
    private final boolean useBloom;

    /** Access through {@code node}, consulting its Bloom filters before routing when {@code useBloom}. */
    public NodeAccess(OverlayNode node, boolean useBloom) {
        this.node = node;
        this.useBloom = useBloom;
    }

    /** Access through {@code node}, Bloom filters first (as every read of the node's own does). */
    public NodeAccess(OverlayNode node) {
        this(node, true);
    }

    @Override
    public void read(Id guid, int ttl, Consumer<ObjectRead> done) {
        node.readForClient(guid, ttl, useBloom, r -> done.accept(ObjectRead.of(r)));
    }

    @Override
    public void anycast(Id service, WireMessage payload, int ttl) {
        node.anycast(service, payload, ttl, r -> { });
    }

    @Override
    public void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl) {
        node.anycast(service, payload, ttl, r -> {
            if (!r.found()) {
                node.anycast(fallbackService, fallbackPayload, ttl, fallback -> { });
            }
        });
    }

    @Override
    public void ask(Id service, Question question, int ttl, Duration within, Consumer<Optional<Answer>> done) {
        node.ask(service, question, ttl, within, done);
    }

    @Override
    public Duration readDeadline() {
        return node.config().locateDeadline();
    }
}
