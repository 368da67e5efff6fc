package io.riptide.gateway.origin;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.NetUtil;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the fetcher speaks TLS to origins: a client context (the JDK's trust store unless told
 * otherwise) and, for every connection, full certificate-chain and host-name validation with SNI.
 */
public final class OriginTls {
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext context;

    private OriginTls(SslContext context) {
        this.context = context;
    }

    /** Trusts the JDK's default trust store (cacerts), as a gateway on the open network should. */
    public static OriginTls systemDefault() {
        return trusting(null);
    }

    /**
     * Trusts the certificate authorities of {@code trust} (the JDK default when null); for tests and
     * private deployments with their own CA.
     */
    public static OriginTls trusting(TrustManagerFactory trust) {
        try {
            return new OriginTls(SslContextBuilder.forClient()
                    .sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .trustManager(trust)
                    .build());
        } catch (SSLException e) {
            throw new IllegalStateException("cannot build the origin TLS context", e);
        }
    }

    /**
     * Uses a client context built elsewhere. Host-name validation is still switched on for every
     * connection, whatever the context says.
     */
    public static OriginTls of(SslContext clientContext) {
        if (!Objects.requireNonNull(clientContext, "clientContext").isClient()) {
            throw new IllegalArgumentException("origin TLS needs a client context");
        }
        return new OriginTls(clientContext);
    }

    /** A handler for a connection to {@code host}:{@code port} that validates the certificate for {@code host}. */
    SslHandler newHandler(ByteBufAllocator alloc, String host, int port) {
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
