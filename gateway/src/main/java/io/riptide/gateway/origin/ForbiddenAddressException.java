package io.riptide.gateway.origin;

import io.netty.util.NetUtil;
import java.io.IOException;
import java.net.InetAddress;

/**
 * A connect refused after name resolution: the origin's name resolved to an address this gateway
 * does not fetch from (see {@link OriginAddresses}). The message says which, e.g.
 * "example.internal resolves to 10.0.0.5, a private address".
 */
final class ForbiddenAddressException extends IOException {
    ForbiddenAddressException(String host, InetAddress address, String kind) {
        super(host + " resolves to " + NetUtil.toAddressString(address) + ", " + kind);
    }
}
