package io.riptide.proxy.upstream;

/** An origin server as the pools key it: plain-HTTP host and port. */
public record Origin(String host, int port) {
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
