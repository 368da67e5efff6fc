package io.riptide.dolr.client;

import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.client.ClientMessages.ClientAnycast;
import io.riptide.dolr.client.ClientMessages.ClientRead;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;

/**
 * An overlay node serving clients that are not members (browser proxies): it reads objects and sends
 * anycasts for them, so laptops coming and going never churn anyone's routing state. Bounded: past
 * a limit of requests in flight, reads are answered at once as timed out and the client tries
 * another access node.
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
        node.read(read.guid(), ttl, result -> {
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

    /** Client reads answered. */
    public long served() {
        return served;
    }

    /** Client reads refused because too many were in flight. */
    public long refused() {
        return refused;
    }
}
