package io.riptide.dolr.client;

import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.client.ClientMessages.ClientAnswer;
import io.riptide.dolr.client.ClientMessages.ClientAnycast;
import io.riptide.dolr.client.ClientMessages.ClientAsk;
import io.riptide.dolr.client.ClientMessages.ClientRead;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;

/**
 * An overlay node serving clients that are not members (browser proxies): it reads objects and sends
 * anycasts for them, so laptops coming and going never churn anyone's routing state. Bounded: past
 * a limit of requests in flight, reads are answered at once as timed out and the client tries
 * another access node. Where the overlay expects untrusted nodes (salted roots on), reads are made
 * verified: a copy whose signature fails here is never relayed, and the read widens instead.
 */
public final class AccessPoint {
    private final OverlayNode node;
    private final NodeAccess own;
    private final int maxInFlight;
    private int inFlight;
    private long served;
    private long refused;

    public AccessPoint(OverlayNode node, int maxInFlight) {
        this.node = node;
        this.own = new NodeAccess(node);
        this.maxInFlight = maxInFlight;
    }

    /** A client asks for a read. */
    public void onRead(NodeHandle client, ClientRead read) {
        if (inFlight >= maxInFlight) {
            refused++;
            node.send(client.address(), new ClientReadReply(read.requestId(), read.guid(),
                    io.riptide.dolr.location.LocationMessages.FailureReason.TIMEOUT, 0, new byte[0]));
            return;
        }
        inFlight++;
        int ttl = Math.max(1, Math.min(read.ttl(), 64));
        node.readForClient(read.guid(), ttl, true, result -> {
            inFlight--;
            served++;
            node.send(client.address(), new ClientReadReply(read.requestId(), read.guid(), result.found() ? null : result.failure(),
                    result.hops(), result.found() && result.data() != null ? result.data() : new byte[0]));
        });
    }

    /** A client asks for an anycast (a hint or an insert request); its answer, if any, is not relayed. */
    public void onAnycast(ClientAnycast anycast) {
        int ttl = Math.max(1, Math.min(anycast.ttl(), 64));
        if (anycast.hasFallback()) {
            own.anycast(anycast.service(), anycast.payload(), anycast.fallbackService(), anycast.fallbackPayload(), ttl);
        } else {
            own.anycast(anycast.service(), anycast.payload(), ttl);
        }
    }

    /**
     * A client asks a question of a service: this node asks it under an ID of its own and relays the
     * answer, or that none came, under the client's ID. Bounded like reads.
     */
    public void onAsk(NodeHandle client, ClientAsk ask) {
        if (inFlight >= maxInFlight) {
            refused++;
            node.send(client.address(), new ClientAnswer(ask.requestId(), null));
            return;
        }
        inFlight++;
        int ttl = Math.max(1, Math.min(ask.ttl(), 64));
        node.ask(ask.service(), ask.question(), ttl, java.time.Duration.ofMillis(ask.deadlineMillis()), answer -> {
            inFlight--;
            node.send(client.address(), new ClientAnswer(ask.requestId(), answer.orElse(null)));
        });
    }

    /** Client reads answered. */
    public long served() {
        return served;
    }

    /** Client reads refused because too many were in flight. */
    public long refused() {
        return refused;
    }
}
