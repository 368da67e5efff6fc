package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.NetUtil;
import io.riptide.proxy.upstream.Origin;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * A browser connection whose CONNECT was intercepted: every request on it is for the CONNECT's
 * authority over https, whatever its {@code Host} says. A {@code Host} naming another host or port is
 * refused (400) rather than followed, so a page cannot steer this proxy's verified connection (and the
 * cache entry it fills) to a host the browser did not open; absolute-form targets must name the same
 * authority too.
 *
 * @param host    the CONNECT's host (an IPv6 literal without brackets)
 * @param port    the CONNECT's port
 * @param refusal why the origin cannot be used (its certificate did not verify, say), answered to every
 *                request as a 502; null when it verified
 */
record Intercepted(String host, int port, String refusal) {
    private static final int HTTPS = 443;

    /** The authority as URLs and {@code Host} write it: brackets for IPv6, the port unless 443. */
    String authority() {
        String h = NetUtil.isValidIpV6Address(host) ? "[" + host + "]" : host;
        return port == HTTPS ? h : h + ":" + port;
    }

    /** Where {@code request} goes: {@code https://} this authority and its path; throws {@link IllegalArgumentException} if it names another. */
    Target target(HttpRequest request) {
        String uri = request.uri();
        String originForm;
        if (uri.startsWith("/")) {
            originForm = uri;
        } else {
            URI absolute;
            try {
                absolute = new URI(uri);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("the request target is not a valid URL: " + e.getReason());
            }
            if (!"https".equalsIgnoreCase(absolute.getScheme()) || !sameAuthority(absolute.getHost(), absolute.getPort())) {
                throw new IllegalArgumentException("this connection was opened (CONNECT) to " + authority()
                        + "; a request for " + uri + " cannot be sent through it");
            }
            String path = absolute.getRawPath() == null || absolute.getRawPath().isEmpty() ? "/" : absolute.getRawPath();
            originForm = absolute.getRawQuery() == null ? path : path + "?" + absolute.getRawQuery();
        }
        String hostField = request.headers().get(HttpHeaderNames.HOST);
        if (hostField != null && !hostMatches(hostField.strip())) {
            throw new IllegalArgumentException("Host: " + hostField + " does not name " + authority()
                    + ", where this connection was opened (CONNECT) to");
        }
        URI url;
        try {
            url = new URI("https://" + authority() + originForm);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the request target is not a valid URL: " + e.getReason());
        }
        return new Target(url, Origin.https(host, port), originForm, authority());
    }

    private boolean hostMatches(String field) {
        URI u;
        try {
            u = new URI("https://" + field + "/");
        } catch (URISyntaxException e) {
            return false;
        }
        return u.getHost() != null && sameAuthority(u.getHost(), u.getPort());
    }

    private boolean sameAuthority(String otherHost, int otherPort) {
        if (otherHost == null) {
            return false;
        }
        String h = otherHost.startsWith("[") && otherHost.endsWith("]") ? otherHost.substring(1, otherHost.length() - 1) : otherHost;
        int p = otherPort == -1 ? HTTPS : otherPort;
        return p == port && canonical(h).equals(canonical(host));
    }

    private static String canonical(String h) {
        String lower = h.toLowerCase(Locale.ROOT);
        if (lower.endsWith(".")) {
            lower = lower.substring(0, lower.length() - 1);
        }
        if (NetUtil.isValidIpV6Address(lower)) {
            return NetUtil.toAddressString(NetUtil.createInetAddressFromIpAddressString(lower));
        }
        return lower;
    }
}
