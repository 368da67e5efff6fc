package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.Question;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Questions a node anycasts to a service on behalf of a client on its host or of a remote client
 * ({@link AccessPoint}), each waiting for its one answer: the service answers the node that asked
 * (the anycast's origin), which hands the answer on. Each question goes out under an ID of this
 * table's range, so clients' own IDs never collide at the service. Runs on the node's loop.
 */
public final class Asks {
    /** This table's IDs start above this, clear of the small IDs an agent on the same node counts from 1. */
    static final long FIRST_ID = 1L << 48;

    private final OverlayNode node;
    private final PendingRequests<Optional<Answer>> pending;
    private long asked;
    private long unanswered;

    public Asks(OverlayNode node) {
        this.node = node;
        this.pending = new PendingRequests<>(node.env(), FIRST_ID);
    }

    /**
     * Anycasts {@code question} to the nearest provider of {@code service} within {@code ttl} hops;
     * {@code done} runs once, with its answer, or empty when no provider was reachable or none
     * answered within {@code deadline}. The answer carries this table's ID for the question, not
     * {@code question}'s own.
     */
    public void ask(Id service, Question question, int ttl, Duration deadline, Consumer<Optional<Answer>> done) {
        asked++;
        long[] id = new long[1];
        id[0] = pending.add(deadline, answer -> {
            if (answer.isEmpty()) {
                unanswered++;
            }
            done.accept(answer);
        }, Optional::empty);
        node.anycast(service, question.withRequestId(id[0]), ttl, located -> {
            if (!located.found()) {
                pending.complete(id[0], Optional.empty());
            }
        });
    }

    /** An answer that came to this node: true if it answered one of these questions (and was handed on). */
    public boolean onAnswer(Answer answer) {
        return pending.complete(answer.requestId(), Optional.of(answer));
    }

    /** Questions asked so far. */
    public long asked() {
        return asked;
    }

    /** Questions that got no answer (no provider reachable, or none within the deadline). */
    public long unanswered() {
        return unanswered;
    }
}
