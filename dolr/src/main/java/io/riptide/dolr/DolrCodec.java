package io.riptide.dolr;

import io.riptide.core.gateway.GatewayMessages;
import io.riptide.core.hint.HintMessages;
import io.riptide.core.wire.MessageCodec;
import io.riptide.dolr.bloom.BloomMessages;
import io.riptide.dolr.client.ClientMessages;
import io.riptide.dolr.dissemination.TreeMessages;
import io.riptide.dolr.lease.LeaseMessages;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.membership.MembershipMessages;
import io.riptide.dolr.placement.PlacementMessages;
import io.riptide.dolr.routing.RoutingMessages;

/**
 * Builds the message codec of an overlay node: every DOLR message (tags 1–999) and the agents'
 * messages defined in riptide-core (from 1000). Every node needs the agents' messages too, because
 * it decodes the payloads it routes.
 */
public final class DolrCodec {
    /** First tag free for applications on top of the overlay. */
    public static final int FIRST_APPLICATION_TAG = 1000;

    private DolrCodec() {
    }

    /** A new codec holding the overlay's messages. */
    public static MessageCodec create() {
        MessageCodec codec = new MessageCodec();
        RoutingMessages.register(codec);
        MembershipMessages.register(codec);
        LocationMessages.register(codec);
        BloomMessages.register(codec);
        PlacementMessages.register(codec);
        LeaseMessages.register(codec);
        ClientMessages.register(codec);
        TreeMessages.register(codec);
        GatewayMessages.register(codec);
        HintMessages.register(codec);
        return codec;
    }
}
