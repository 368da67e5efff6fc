package io.riptide.proxy.upstream;

/**
 * An origin server as the pools key it: host, port and whether it speaks TLS ({@code https://}, only
 * for intercepted connections), so a plain and a TLS connection to one host:port never share a pool.
 */
public record Origin(String host, int port, boolean tls) {
    /** A plain-HTTP origin. */
    public Origin(String host, int port) {
        this(host, port, false);
    }

    /** An {@code https://} origin, verified when connected to. */
    public static Origin https(String host, int port) {
        return new Origin(host, port, true);
    }

    @Override
    public String toString() {
        return tls ? "https://" + host + ":" + port : host + ":" + port;
    }
}
