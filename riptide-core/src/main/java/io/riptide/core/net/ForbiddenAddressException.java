package io.riptide.core.net;

import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.InetAddress;

/**
 * A connect refused after name resolution: the name resolved to an address the connecting side
 * refuses to reach (see {@link CheckedAddressResolverGroup}). The message says which, e.g.
 * "example.internal resolves to 10.0.0.5, a private address".
 */
public final class ForbiddenAddressException extends IOException {
    public ForbiddenAddressException(String host, InetAddress address, String kind) {
        super(describe(host, NetUtil.toAddressString(address)) + ", " + kind);
    }

    /** "example.internal resolves to 10.0.0.5", or just "10.0.0.5" for an address given as such. */
    private static String describe(String host, String address) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return bare.equalsIgnoreCase(address) ? address : host + " resolves to " + address;
    }
}
