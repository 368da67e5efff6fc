package io.riptide.dolr.transport;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Ties a connection to its {@link PeerLink}: an outbound connection to the link that opened it, an
 * inbound one to a link adopted for replies. The link gets the channel once the peer is proven and
 * is retired when the channel closes.
 */
final class LinkBinder extends ChannelInboundHandlerAdapter {
    private final PeerLinks links;
    private PeerLink link;

    /** For a connection this node opened for {@code link}. */
    static LinkBinder outbound(PeerLinks links, PeerLink link) {
        return new LinkBinder(links, link);
    }

    /** For a connection a peer opened. */
    static LinkBinder inbound(PeerLinks links) {
        return new LinkBinder(links, null);
    }

    private LinkBinder(PeerLinks links, PeerLink link) {
        this.links = links;
        this.link = link;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof PeerAuthenticated authenticated) {
            if (link != null) {
                link.ready(ctx.channel(), authenticated.version());
            } else {
                link = links.adopt(authenticated.peer().address(), ctx.channel(), authenticated.version());
            }
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (link != null) {
            links.retire(link);
        }
        ctx.fireChannelInactive();
    }
}
