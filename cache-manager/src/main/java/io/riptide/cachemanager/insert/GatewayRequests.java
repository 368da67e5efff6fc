package io.riptide.cachemanager.insert;

import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;

/** Insert requests to the nearest gateway (anycast to the provider's gateway service) and the tally of their outcomes. */
public final class GatewayRequests {
    private final OverlayNode node;
    private final Id gatewayService;
    private final Duration deadline;
    private final PendingRequests<InsertReply> pending;
    private final Map<Outcome, Long> outcomes = new EnumMap<>(Outcome.class);
    private final Consumer<InsertReply> onAnswer;
    private long sent;
    private long retried;

    /** Tries at one insert: the request, and once more if the gateway was busy or did not answer. */
    static final int ATTEMPTS = 2;

    /** {@code onAnswer} hears every answer, a gateway's or the verdict that none came. */
    public GatewayRequests(OverlayNode node, Id gatewayService, Duration deadline, Consumer<InsertReply> onAnswer) {
        this.node = node;
        this.gatewayService = gatewayService;
        this.deadline = deadline;
        this.onAnswer = onAnswer;
        this.pending = new PendingRequests<>(node.env());
    }

    /**
     * Asks the nearest gateway to insert {@code url}, or to re-check it if {@code stale}, fetching
     * the variant {@code requestHeaders} select (the hint's variant-selecting fields).
     */
    public void insert(String url, Headers requestHeaders, boolean stale) {
        insert(url, requestHeaders, stale, 1);
    }

    private void insert(String url, Headers requestHeaders, boolean stale, int attempt) {
        sent++;
        long[] id = new long[1];
        id[0] = pending.add(deadline, reply -> {
            tally(reply);
            boolean busy = reply.outcome() == Outcome.OVERLOADED || reply.outcome() == Outcome.UNREACHABLE;
            if (busy && attempt < ATTEMPTS) {
                // A busy gateway asks to be asked again later, and an unanswered request was most often
                // lost in a crowd: once more after a deadline, when the crowd has likely passed.
                retried++;
                node.env().schedule(deadline, () -> insert(url, requestHeaders, stale, attempt + 1));
            }
        },
                () -> new InsertReply(id[0], url, Id.ZERO, 0, Outcome.UNREACHABLE, "no answer from a gateway"));
        node.anycast(gatewayService, new InsertRequest(id[0], url, requestHeaders, stale), node.config().defaultTtl(), located -> {
            if (!located.found()) {
                pending.complete(id[0], new InsertReply(id[0], url, Id.ZERO, 0, Outcome.UNREACHABLE,
                        "no gateway reachable: " + located.failure()));
            }
        });
    }

    /** A gateway's answer. */
    public void onReply(InsertReply reply) {
        pending.complete(reply.requestId(), reply);
    }

    private void tally(InsertReply reply) {
        outcomes.merge(reply.outcome(), 1L, Long::sum);
        onAnswer.accept(reply);
    }

    /** Insert requests sent again because the first attempt found the gateway busy or unreachable. */
    public long retried() {
        return retried;
    }

    /** Insert requests sent so far (retries included). */
    public long sent() {
        return sent;
    }

    /** How many answers (or failures) had {@code outcome}. */
    public long outcomes(Outcome outcome) {
        return outcomes.getOrDefault(outcome, 0L);
    }
}
