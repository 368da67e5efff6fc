package io.riptide.gateway.origin;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/** The URL rules of the fetcher: which URLs it fetches, how it names them, and what it sends for them. */
final class Urls {
    private Urls() {
    }

    static int defaultPort(String scheme) {
        return scheme.equals("https") ? 443 : 80;
    }

    /** Null if {@code url} can be fetched, else why not. */
    static String problem(URI url) {
        if (!url.isAbsolute() || url.isOpaque()) {
            return "is not an absolute URL";
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return "is not http or https";
        }
        if (url.getHost() == null || url.getHost().isEmpty()) {
            return "has no host (or one java.net.URI can't parse)";
        }
        if (url.getPort() > 65535) {
            return "has an invalid port";
        }
        return null;
    }

    /**
     * {@code url} as the fetcher names and compares it: scheme and host in lower case, the default
     * port dropped, and never the userinfo (a credential) or the fragment (never sent).
     */
    static URI canonical(URI url) {
        OriginKey key = OriginKey.of(url);
        int port = key.port() == defaultPort(key.scheme()) ? -1 : key.port();
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        String query = url.getRawQuery() == null ? "" : "?" + url.getRawQuery();
        String host = key.host().indexOf(':') >= 0 ? "[" + key.host() + "]" : key.host();
        try {
            return new URI(key.scheme() + "://" + host + (port == -1 ? "" : ":" + port) + path + query);
        } catch (URISyntaxException e) {
            // The parts came from a URI that parsed, so they parse again.
            throw new IllegalStateException(e);
        }
    }

    /** The request target (origin-form): the raw path, "/" if empty, and the raw query. */
    static String target(URI url) {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }

    /** The Host header for {@code key}: the port only when it isn't the scheme's default. */
    static String hostHeader(OriginKey key) {
        String host = key.host().indexOf(':') >= 0 ? "[" + key.host() + "]" : key.host();
        return key.port() == defaultPort(key.scheme()) ? host : host + ":" + key.port();
    }

    /** {@code url} for messages and logs: without its userinfo, which may be a password. */
    static String redacted(URI url) {
        String info = url.getRawUserInfo();
        return info == null ? url.toString() : url.toString().replace(info + "@", "");
    }
}
