package io.riptide.proxy.tls;

import io.riptide.core.net.OriginTrust;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.TrustManagerFactory;

/**
 * HTTPS interception as configured: which CONNECT targets to intercept, the local CA that signs the
 * certificates browsers see, and whom the proxy trusts when it connects to those origins itself.
 * {@link #OFF} (the default) intercepts nothing: every CONNECT is a blind tunnel, as before.
 *
 * @param policy           which hosts are intercepted
 * @param ca               the local CA; null only when nothing is intercepted
 * @param originTrust      the anchors origins' certificates are verified against: the system trust store,
 *                         plus {@code originTrustFiles}
 * @param originTrustFiles the extra anchors' PEM files ({@code --origin-trust}), for messages
 */
public record Interception(InterceptPolicy policy, LocalCa ca, TrustManagerFactory originTrust, List<Path> originTrustFiles) {
    /** Nothing intercepted. */
    public static final Interception OFF = new Interception(InterceptPolicy.NONE, null, null, List.of());

    public Interception {
        Objects.requireNonNull(policy, "policy");
        originTrustFiles = List.copyOf(originTrustFiles);
        if (policy.any() && (ca == null || originTrust == null)) {
            throw new IllegalArgumentException("intercepting needs a local CA and the origins' trust anchors");
        }
    }

    /**
     * Intercepts {@code policy}'s hosts with {@code ca}, verifying origins against the system trust
     * store plus the certificates in {@code extraAnchors}.
     */
    public static Interception of(InterceptPolicy policy, LocalCa ca, List<Path> extraAnchors) throws IOException {
        return new Interception(policy, ca, OriginTrust.systemPlus(extraAnchors), extraAnchors);
    }

    /** Whether a CONNECT to {@code host} is intercepted. */
    public boolean intercepts(String host) {
        return policy.intercepts(host);
    }

    /** Whether anything is intercepted. */
    public boolean on() {
        return policy.any();
    }

    /** What origins are verified against, in words. */
    public String trustDescription() {
        return originTrustFiles.isEmpty() ? "the system trust store"
                : "the system trust store and " + originTrustFiles.stream().map(Path::toString).reduce((a, b) -> a + ", " + b).orElse("");
    }
}
