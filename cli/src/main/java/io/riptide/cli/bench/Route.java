package io.riptide.cli.bench;

import java.net.InetSocketAddress;

/** One way to reach the origin: straight to it, or through a forward proxy at {@code connectTo}. */
public record Route(String name, InetSocketAddress connectTo, boolean viaProxy) {
    /** The request target for {@code path} on {@code originAuthority}: absolute-form through a proxy, else origin-form. */
    public String target(String originAuthority, String path) {
        return viaProxy ? "http://" + originAuthority + path : path;
    }
}
