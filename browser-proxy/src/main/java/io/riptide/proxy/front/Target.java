package io.riptide.proxy.front;

import io.riptide.proxy.upstream.Origin;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where an absolute-form request goes: the origin, the origin-form target to send it and the
 * {@code Host} value that replaces the browser's (RFC 9112 §3.2.2).
 */
record Target(URI url, Origin origin, String originForm, String hostHeader) {
    /** Parses an absolute-form request target; throws {@link IllegalArgumentException} with a readable reason. */
    static Target parse(String requestTarget) {
        URI url;
        try {
            url = new URI(requestTarget);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the request target is not a valid URL: " + e.getReason());
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) {
            // Browsers send https through CONNECT; this proxy does not originate TLS.
            throw new IllegalArgumentException("https URLs must be requested through a CONNECT tunnel");
        }
        if (!scheme.equals("http")) {
            throw new IllegalArgumentException("only http URLs can be proxied, not " + requestTarget);
        }
        String host = url.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("the URL " + requestTarget + " names no host");
        }
        int port = url.getPort() == -1 ? 80 : url.getPort();
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String originForm = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        String bareHost = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        String hostHeader = port == 80 ? host : host + ":" + port;
        return new Target(url, new Origin(bareHost, port), originForm, hostHeader);
    }
}
