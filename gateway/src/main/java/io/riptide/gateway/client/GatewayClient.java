package io.riptide.gateway.client;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.gateway.GatewayMessages.PublisherPush;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.PendingRequests;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * How other agents ask a provider's gateways for inserts: by anycast to the gateway service GUID,
 * which reaches the nearest gateway; the gateway answers directly. Runs on the caller's node loop;
 * as an {@link OverlayApplication} it takes the replies.
 */
public final class GatewayClient implements OverlayApplication {
    private final OverlayNode node;
    private final Id service;
    private final PendingRequests<InsertReply> pending;
    private final Duration deadline;

    public GatewayClient(OverlayNode node, PublicKey provider, Duration deadline) {
        this.node = node;
        this.service = ObjectNames.gatewayGuid(provider);
        this.pending = new PendingRequests<>(node.env());
        this.deadline = deadline;
    }

    /** Asks the nearest gateway to insert (or refresh) {@code url}; {@code done} gets its reply or a failure. */
    public void insert(String url, Headers requestHeaders, boolean stale, Consumer<InsertReply> done) {
        insert(url, requestHeaders, stale, false, done);
    }

    /** As above; with {@code wantsCopy} the reply carries the signed copy (see {@link InsertRequest#wantsCopy()}). */
    public void insert(String url, Headers requestHeaders, boolean stale, boolean wantsCopy, Consumer<InsertReply> done) {
        long[] id = new long[1];
        id[0] = pending.add(deadline, done, () -> failure(id[0], url, "no answer from a gateway within " + deadline.toMillis() + " ms"));
        node.anycast(service, new InsertRequest(id[0], url, requestHeaders, stale, wantsCopy), node.config().defaultTtl(), located -> {
            if (!located.found()) {
                pending.complete(id[0], failure(id[0], url, "no gateway reachable: " + located.failure()));
            }
        });
    }

    /** Asks the gateway at {@code gateway} directly (not the nearest one) to insert {@code url}. */
    public void insertVia(io.riptide.core.runtime.NodeAddress gateway, String url, Headers requestHeaders, Consumer<InsertReply> done) {
        insertVia(gateway, url, requestHeaders, false, done);
    }

    /** As above; {@code stale} says the requester found its copy stale (three such reports install a monitor). */
    public void insertVia(io.riptide.core.runtime.NodeAddress gateway, String url, Headers requestHeaders, boolean stale,
                          Consumer<InsertReply> done) {
        long[] id = new long[1];
        id[0] = pending.add(deadline, done, () -> failure(id[0], url, "no answer from " + gateway + " within " + deadline.toMillis() + " ms"));
        node.send(gateway, new InsertRequest(id[0], url, requestHeaders, stale));
    }

    /** Pushes a signed publisher push (see {@code PushSignatures}) to the nearest gateway. */
    public void push(PublisherPush unsigned, Consumer<InsertReply> done) {
        PublisherPush push = unsigned;
        long id = pending.add(deadline, done, () -> failure(0, unsigned.url(), "no answer from a gateway"));
        push = new PublisherPush(id, push.url(), push.status(), push.headers(), push.body(), push.publisherKey(),
                push.timestampMillis(), push.signature());
        node.anycast(service, push, node.config().defaultTtl(), located -> {
            if (!located.found()) {
                pending.complete(id, failure(id, unsigned.url(), "no gateway reachable: " + located.failure()));
            }
        });
    }

    private static InsertReply failure(long id, String url, String why) {
        return new InsertReply(id, url, Id.ZERO, 0, Outcome.UNREACHABLE, why);
    }

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (message instanceof InsertReply reply) {
            pending.complete(reply.requestId(), reply);
        }
    }
}
