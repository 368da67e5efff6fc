package io.riptide.proxy.tunnel;

import io.netty.bootstrap.Bootstrap;
import io.riptide.core.net.ForbiddenAddressException;
import io.riptide.proxy.DestinationPolicy;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.resolver.AddressResolverGroup;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.riptide.core.net.NettyTransport;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;

/** Opens a CONNECT tunnel's target connection and splices it to the browser's. */
public final class Tunnels {
    /** How opening the target connection came out; called on the browser connection's event loop. */
    public interface Opened {
        void established(Channel target);

        void failed(HttpResponseStatus status, String message);
    }

    private Tunnels() {
    }

    /**
     * Connects to {@code host:port} on {@code client}'s event loop, the name resolved by {@code resolver},
     * not reading until spliced.
     */
    public static void connect(Channel client, String host, int port, Duration connectTimeout,
                               AddressResolverGroup<InetSocketAddress> resolver, Opened opened) {
        ChannelFuture f = new Bootstrap()
                .group(client.eventLoop())
                .resolver(resolver)
                .channel(NettyTransport.socketChannelFor(client.eventLoop()))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(InetSocketAddress.createUnresolved(host, port));
        f.addListener((ChannelFuture done) -> {
            if (done.isSuccess()) {
                opened.established(done.channel());
                return;
            }
            Throwable c = done.cause();
            String target = host + ":" + port;
            if (c instanceof ForbiddenAddressException refused) {
                opened.failed(HttpResponseStatus.FORBIDDEN, DestinationPolicy.refusalMessage(refused));
            } else if (c instanceof ConnectTimeoutException) {
                opened.failed(HttpResponseStatus.GATEWAY_TIMEOUT, "could not connect to " + target + " in time");
            } else if (c instanceof UnknownHostException) {
                opened.failed(HttpResponseStatus.BAD_GATEWAY, "cannot resolve the host name " + host);
            } else if (c instanceof ConnectException) {
                opened.failed(HttpResponseStatus.BAD_GATEWAY, "cannot connect to " + target + ": connection refused");
            } else {
                opened.failed(HttpResponseStatus.BAD_GATEWAY, "cannot connect to " + target + ": " + c);
            }
        });
    }

    /** Relays bytes both ways between {@code client} and {@code target}; either closing closes both. */
    public static void splice(Channel client, Channel target) {
        client.pipeline().addLast("relay", new Relay(target));
        target.pipeline().addLast("relay", new Relay(client));
        if (!client.isActive()) {
            target.close();
            return;
        }
        target.closeFuture().addListener(f -> Relay.closeAfterFlush(client));
        client.config().setAutoRead(true);
        target.config().setAutoRead(true);
    }
}
