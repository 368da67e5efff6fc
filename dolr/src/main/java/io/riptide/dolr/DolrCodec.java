package io.riptide.dolr;

import io.riptide.core.wire.MessageCodec;
import io.riptide.dolr.bloom.BloomMessages;
import io.riptide.dolr.lease.LeaseMessages;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.membership.MembershipMessages;
import io.riptide.dolr.placement.PlacementMessages;
import io.riptide.dolr.routing.RoutingMessages;

/** Builds the message codec of an overlay node: every DOLR message, tags 1–999. Agents add theirs from 1000. */
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
        return codec;
    }
}
