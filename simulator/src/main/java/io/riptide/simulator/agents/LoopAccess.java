package io.riptide.simulator.agents;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.client.ObjectRead;
import io.riptide.dolr.client.OverlayAccess;
import io.riptide.simulator.stages.HostStages;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A proxy's reads through its access node, each first costing the node's event loop what handling a
 * client's read costs over TCP ({@link HostStages#ACCESS_STAGE}): in simulation the proxy calls the
 * node directly ({@link io.riptide.dolr.client.NodeAccess}), which would otherwise be free. Anycasts
 * (hints, load reports) are rare next to reads and pass uncharged.
 */
final class LoopAccess implements OverlayAccess {
    private final Env env;
    private final OverlayAccess node;

    LoopAccess(Env env, OverlayAccess node) {
        this.env = env;
        this.node = node;
    }

    @Override
    public void read(Id guid, int ttl, Consumer<ObjectRead> done) {
        // The loop's queue is unbounded (as a Netty loop's is), so a refusal cannot happen; read anyway if it did.
        if (!env.submit(HostStages.ACCESS_STAGE, () -> null, (v, e) -> node.read(guid, ttl, done))) {
            node.read(guid, ttl, done);
        }
    }

    @Override
    public void anycast(Id service, WireMessage payload, int ttl) {
        node.anycast(service, payload, ttl);
    }

    @Override
    public void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl) {
        node.anycast(service, payload, fallbackService, fallbackPayload, ttl);
    }

    @Override
    public void ask(Id service, Question question, int ttl, Duration within, Consumer<Optional<Answer>> done) {
        node.ask(service, question, ttl, within, done);
    }

    @Override
    public Duration readDeadline() {
        return node.readDeadline();
    }
}
