package io.riptide.proxy.front;

import io.riptide.core.net.UrlHost;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.riptide.proxy.ProxyStats.Outcome;
import io.riptide.proxy.tunnel.Tunnels;
import io.riptide.proxy.upstream.Origin;

/**
 * A CONNECT request. By default it opens the tunnel's target connection, answers 200, then hands the
 * browser's connection over to the byte relay (the HTTP handlers leave the pipeline): HTTPS passes
 * through untouched (architecture §8), the proxy never sees inside it. For a host the user chose to
 * intercept ({@code --intercept}) it instead verifies the origin's certificate first (a pooled TLS
 * connection to it), answers 200, and terminates the browser's TLS here with a leaf the local CA
 * signed ({@link FrontHandler#detachForInterception}); an origin that did not verify still gets the
 * 200, so the browser can be shown the 502 page saying why.
 */
final class ConnectExchange implements Exchange, Tunnels.Opened {
    private static final HttpResponseStatus ESTABLISHED = new HttpResponseStatus(200, "Connection Established");

    private final FrontHandler front;
    private final FrontContext context;
    private final long started;
    private final long startMillis = System.currentTimeMillis();
    private String authority = "-";
    private boolean requestComplete;
    private boolean responseComplete;
    private boolean clientGone;

    private ConnectExchange(FrontHandler front, FrontContext context, long started) {
        this.front = front;
        this.context = context;
        this.started = started;
    }

    static Exchange start(FrontHandler front, FrontContext context, HttpRequest request, long started) {
        ConnectExchange x = new ConnectExchange(front, context, started);
        String authority = request.uri();
        x.authority = authority;
        int colon = authority.lastIndexOf(':');
        int port;
        try {
            port = colon < 0 ? -1 : Integer.parseInt(authority.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        String host = colon < 0 ? "" : authority.substring(0, colon);
        try {
            // As browsers read it (0177.0.0.1 is 127.0.0.1), so the destination policy judges where the tunnel goes.
            host = UrlHost.canonical(host);
        } catch (IllegalArgumentException e) {
            host = "";
        }
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.isEmpty() || port < 1 || port > 65535) {
            x.failed(HttpResponseStatus.BAD_REQUEST, "CONNECT needs a host:port target, not " + authority);
        } else if (!context.config().tunnelAllowed(port)) {
            x.failed(HttpResponseStatus.FORBIDDEN, "this proxy does not open tunnels to port " + port);
        } else if (context.config().interception().intercepts(host)) {
            x.intercept(host, port);
        } else {
            Tunnels.connect(front.context().channel(), host, port, context.config().connectTimeout(), context.upstream().resolver(), x);
        }
        return x;
    }

    /** Verifies the origin, then answers 200 and takes the browser's TLS over. */
    private void intercept(String host, int port) {
        Channel client = front.context().channel();
        context.stats().connectionIntercepted();
        context.upstream().verify(client.eventLoop(), Origin.https(host, port), failure -> {
            if (clientGone || !client.isActive()) {
                return;
            }
            responseComplete = true;
            logAccess(200, failure == null ? "intercept" : "intercept-refused");
            client.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, ESTABLISHED), client.voidPromise());
            front.detachForInterception(host, port, failure == null ? null : failure.message());
        });
    }

    /** The access log's line: the tunnel as opened (its bytes are the TLS inside, not counted). */
    private void logAccess(int status) {
        logAccess(status, "tunnel");
    }

    /** As above, with what became of the CONNECT: tunnelled, or intercepted (each request inside then gets a line of its own). */
    private void logAccess(int status, String outcome) {
        Channel client = front.context().channel();
        String from = client.remoteAddress() instanceof java.net.InetSocketAddress a ? a.getAddress().getHostAddress() : "-";
        context.config().accessLog().log(new io.riptide.proxy.accesslog.AccessRecord(startMillis,
                System.currentTimeMillis() - startMillis, from, "CONNECT", authority, status, 0, outcome, null));
    }

    @Override
    public void established(Channel target) {
        Channel client = front.context().channel();
        if (clientGone || !client.isActive()) {
            target.close();
            return;
        }
        responseComplete = true;
        context.stats().tunnelOpened();
        logAccess(200);
        // Encoded by the codec at once, so the codec can leave right after.
        client.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, ESTABLISHED), client.voidPromise());
        // The relay goes in before the codec leaves, so any bytes the codec still holds reach it.
        Tunnels.splice(client, target);
        front.detachForTunnel();
    }

    @Override
    public void failed(HttpResponseStatus status, String message) {
        if (clientGone) {
            return;
        }
        responseComplete = true;
        context.stats().record(Outcome.ERROR, System.nanoTime() - started);
        logAccess(status.code());
        front.respond(Responses.text(front.context().alloc(), status, message, context.config().via()), false);
    }

    @Override
    public void requestContent(HttpContent content) {
        requestComplete |= content instanceof LastHttpContent;
        content.release();
    }

    @Override
    public boolean requestComplete() {
        return requestComplete;
    }

    @Override
    public boolean responseComplete() {
        return responseComplete;
    }

    @Override
    public void clientWritabilityChanged(boolean writable) {
    }

    @Override
    public void clientClosed() {
        clientGone = true;
    }
}
