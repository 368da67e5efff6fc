package io.riptide.proxy.front;

import io.riptide.core.net.UrlHost;
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
        String written = url.getHost();
        int port = url.getPort();
        if (written == null && url.getRawAuthority() != null) {
            // java.net.URI keeps to RFC 2396's host names, so a host browsers take (my_site.example,
            // 0x7f.1, 2130706433) leaves it a registry authority: read the host and port ourselves.
            String authority = url.getRawAuthority();
            authority = authority.substring(authority.lastIndexOf('@') + 1);
            int colon = authority.lastIndexOf(':');
            if (colon >= 0 && authority.indexOf(']', colon) < 0) {
                port = port(authority.substring(colon + 1), requestTarget);
                authority = authority.substring(0, colon);
            }
            written = authority;
        }
        if (written == null || written.isEmpty()) {
            throw new IllegalArgumentException("the URL " + requestTarget + " names no host");
        }
        // As browsers read it, so that where the proxy connects is what the destination policy judges.
        String host = UrlHost.canonical(written);
        port = port == -1 ? 80 : port;
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("the URL " + requestTarget + " has no valid port");
        }
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String originForm = url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
        String bareHost = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        String hostHeader = port == 80 ? host : host + ":" + port;
        if (!host.equals(url.getHost()) || url.getRawUserInfo() != null) {
            // The URL as a browser would have sent it, so the cache names what the origin is asked for.
            try {
                url = new URI("http://" + hostHeader + originForm);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("the request target is not a valid URL: " + e.getReason());
            }
        }
        return new Target(url, new Origin(bareHost, port), originForm, hostHeader);
    }

    private static int port(String digits, String requestTarget) {
        if (digits.isEmpty()) {
            return -1;
        }
        if (!digits.chars().allMatch(c -> c >= '0' && c <= '9') || digits.length() > 5 || Integer.parseInt(digits) > 65535) {
            throw new IllegalArgumentException("the URL " + requestTarget + " has no valid port");
        }
        return Integer.parseInt(digits);
    }
}
