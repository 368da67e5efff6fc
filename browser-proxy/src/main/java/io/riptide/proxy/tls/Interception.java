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
 * @param originTrustFiles the extra anchors' PEM files ({@code --origin-ca}), for messages
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

    /**
     * Interception as the options {@code --intercept}, {@code --ca-dir} (null: {@link LocalCa#defaultDirectory()})
     * and {@code --origin-ca} ask for it, loading the CA and the extra anchors.
     *
     * @throws IllegalArgumentException naming the option and saying what to do: a bad host list, no CA yet
     *                                  ({@code riptide ca init}), a key others can read, an unreadable anchor file,
     *                                  or a CA directory or anchors given without anything to intercept
     */
    public static Interception fromOptions(List<String> intercept, Path caDir, List<Path> originTrust) {
        InterceptPolicy policy;
        try {
            policy = InterceptPolicy.parse(intercept);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--intercept: " + e.getMessage(), e);
        }
        if (!policy.any()) {
            if (caDir != null || !originTrust.isEmpty()) {
                throw new IllegalArgumentException((caDir != null ? "--ca-dir" : "--origin-ca")
                        + " applies to intercepted HTTPS only: add --intercept HOSTS (or all)");
            }
            return OFF;
        }
        LocalCa ca;
        try {
            ca = LocalCa.load(caDir != null ? caDir : LocalCa.defaultDirectory());
        } catch (IOException e) {
            throw new IllegalArgumentException("--intercept needs the local CA: " + e.getMessage(), e);
        }
        try {
            return of(policy, ca, originTrust);
        } catch (IOException e) {
            throw new IllegalArgumentException("--origin-ca: " + e.getMessage(), e);
        }
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
