package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpMethod;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** Which methods change what a URL holds (RFC 9110 §9.2.1), and which related URIs a change may name (RFC 9111 §4.4). */
final class UnsafeMethods {
    /** The safe methods; every other, known or not, may change the target. */
    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS, HttpMethod.TRACE);

    private UnsafeMethods() {
    }

    static boolean isUnsafe(HttpMethod method) {
        return !SAFE.contains(method);
    }

    /** {@code reference} (a Location or Content-Location value) resolved against {@code target}, if on the same origin. */
    static Optional<URI> sameOrigin(URI target, String reference) {
        URI resolved;
        try {
            resolved = target.resolve(new URI(reference.strip()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
        boolean same = resolved.getScheme() != null && resolved.getScheme().equalsIgnoreCase(target.getScheme())
                && resolved.getHost() != null && resolved.getHost().toLowerCase(Locale.ROOT).equals(
                        target.getHost() == null ? null : target.getHost().toLowerCase(Locale.ROOT))
                && Objects.equals(port(resolved), port(target));
        return same ? Optional.of(resolved) : Optional.empty();
    }

    private static int port(URI u) {
        return u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }
}
