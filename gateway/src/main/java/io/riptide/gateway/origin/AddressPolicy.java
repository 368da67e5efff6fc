package io.riptide.gateway.origin;

import io.riptide.core.net.CheckedAddressResolverGroup;
import io.riptide.core.net.PublicAddresses;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.function.Function;

/**
 * The fetcher's rule for origin addresses when private origins are not allowed: a URL whose host is
 * an IP literal is judged before anything is sent, a host name once resolved, at every connect.
 *
 * @param judge null for an address that may be fetched, else what kind it is ("a private address")
 * @param names resolves host names, or null for the fetcher's own DNS client (tests give their own, having no DNS)
 */
record AddressPolicy(Function<InetAddress, String> judge, AddressResolverGroup<InetSocketAddress> names) {
    /** Public origins only, names resolved by the fetcher's own DNS client. */
    static final AddressPolicy PUBLIC_ONLY = new AddressPolicy(PublicAddresses::forbidden, null);

    AddressPolicy {
        Objects.requireNonNull(judge, "judge");
    }

    /**
     * The refusal of {@code url} if its host is an IP literal this policy refuses, else null (a
     * host name is judged once resolved, by {@link #resolverGroup}).
     */
    FetchException literalRefusal(URI url) {
        String host = OriginKey.of(url).host();
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(host);
        if (literal == null) {
            return null;
        }
        InetAddress address;
        try {
            address = InetAddress.getByAddress(literal); // no lookup: the bytes are the address
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // only for a wrong length, and NetUtil gives 4 or 16
        }
        String kind = judge.apply(address);
        return kind == null ? null : Failures.forbiddenOrigin(url, host + " is " + kind);
    }

    /**
     * A resolver group that fails the resolution of a name to an address this policy refuses, names
     * resolved by this policy's resolver or, without one, by {@code dns}.
     */
    CheckedAddressResolverGroup resolverGroup(AddressResolverGroup<InetSocketAddress> dns) {
        return new CheckedAddressResolverGroup(names != null ? names : dns, judge);
    }
}
