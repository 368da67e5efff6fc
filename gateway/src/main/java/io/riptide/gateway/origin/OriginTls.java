package io.riptide.gateway.origin;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.riptide.core.net.ClientTls;
import java.util.Objects;
import javax.net.ssl.TrustManagerFactory;

/**
 * How the fetcher speaks TLS to origins: a client context (the JDK's trust store unless told
 * otherwise) and, for every connection, full certificate-chain and host-name validation with SNI
 * ({@link ClientTls}, shared with the browser proxy's upstream connections).
 */
public final class OriginTls {
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
     * private deployments with their own CA ({@code riptide gateway --origin-ca}).
     */
    public static OriginTls trusting(TrustManagerFactory trust) {
        return new OriginTls(ClientTls.context(trust));
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
        return ClientTls.verifying(context, alloc, host, port);
    }
}
