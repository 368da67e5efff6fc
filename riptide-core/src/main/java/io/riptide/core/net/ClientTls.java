package io.riptide.core.net;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.NetUtil;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * TLS as a client of origins: a context trusting given anchors, and handlers that check both the
 * certificate chain and that the certificate names the host asked for, sending that name as SNI. The
 * gateway's fetcher and the browser proxy's upstream connections both make their handlers here.
 */
public final class ClientTls {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private ClientTls() {
    }

    /** A client context trusting {@code trust} (the JDK's default trust store when null). */
    public static SslContext context(TrustManagerFactory trust) {
        try {
            return SslContextBuilder.forClient()
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .trustManager(trust)
                    .build();
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build a TLS client context", e);
        }
    }

    /** A handler for a connection to {@code host}:{@code port} that validates the certificate for {@code host}. */
    public static SslHandler verifying(SslContext context, ByteBufAllocator alloc, String host, int port) {
        SslHandler handler = context.newHandler(alloc, host, port);
        SSLEngine engine = handler.engine();
        SSLParameters params = engine.getSSLParameters();
        // Without this the JDK checks the chain but not that the certificate names the host we asked for.
        params.setEndpointIdentificationAlgorithm("HTTPS");
        if (!NetUtil.isValidIpV4Address(host) && !NetUtil.isValidIpV6Address(host)) {
            try {
                params.setServerNames(List.of(new SNIHostName(host)));
            } catch (IllegalArgumentException e) {
                // Not a name SNI can carry (say, a trailing dot): the handshake still validates it.
            }
        }
        engine.setSSLParameters(params);
        return handler;
    }
}
