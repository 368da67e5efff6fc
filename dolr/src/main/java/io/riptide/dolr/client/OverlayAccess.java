package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireMessage;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a browser proxy asks of the overlay, and all it sees of it: reads of the nearest replica of an
 * object within a hop budget, fire-and-forget anycasts to a service (hints, load reports), and
 * questions with one answer (a gateway's insert, which a proxy waits for). A proxy that is not a member reaches it through its nearest access nodes
 * ({@link AccessNodes}); a proxy on a member's own host reads through that node ({@link NodeAccess}).
 * Called on the owner's event loop; answers come back on it.
 */
public interface OverlayAccess {
    /** Reads the nearest replica of {@code guid} within {@code ttl} hops; {@code done} runs once, within {@link #readDeadline}. */
    void read(Id guid, int ttl, Consumer<ObjectRead> done);

    /** Anycasts {@code payload} to the nearest provider of {@code service}; no answer. */
    void anycast(Id service, WireMessage payload, int ttl);

    /** Anycasts {@code payload} to {@code service}, or {@code fallbackPayload} to {@code fallbackService} if it has no provider. */
    void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl);

    /**
     * Asks {@code question} of the nearest provider of {@code service} (an insert of a gateway);
     * {@code done} runs once, with the provider's answer, or empty if none came within {@code within}.
     */
    void ask(Id service, Question question, int ttl, Duration within, Consumer<Optional<Answer>> done);

    /** How long one {@link #read} may take before it completes as a timeout. */
    Duration readDeadline();

    /** Hedged and re-sent reads, and access nodes lost and down ({@link AccessFigures#NONE} where reads are not hedged). */
    default AccessFigures accessFigures() {
        return AccessFigures.NONE;
    }
}
