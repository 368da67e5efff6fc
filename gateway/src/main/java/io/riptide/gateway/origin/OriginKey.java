package io.riptide.gateway.origin;

import java.net.URI;
import java.util.Locale;

/**
 * One origin as connections see it: scheme, host and port. Connections are pooled per key.
 *
 * @param scheme "http" or "https"
 * @param host the host name or IP literal, lower case, IPv6 without brackets
 * @param port the port, the scheme's default filled in
 */
record OriginKey(String scheme, String host, int port) {
    /** The key of an absolute http(s) URL already checked by {@link Urls#check}. */
    static OriginKey of(URI url) {
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        String host = url.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port = url.getPort() != -1 ? url.getPort() : Urls.defaultPort(scheme);
        return new OriginKey(scheme, host, port);
    }

    boolean secure() {
        return scheme.equals("https");
    }

    @Override
    public String toString() {
        return scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
