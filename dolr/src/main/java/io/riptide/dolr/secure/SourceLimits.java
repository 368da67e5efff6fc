package io.riptide.dolr.secure;

/**
 * How many node IDs one source may place in a node's routing state (routing table and leaf set
 * together). Node IDs come from keys, which cost nothing, so without a bound one machine could fill
 * a victim's leaf set with IDs of its choosing and eclipse it; addresses cost more.
 *
 * <p>A source is an address prefix: the first {@code ipv4PrefixBits} of an IPv4 address, the first
 * {@code ipv6PrefixBits} of an IPv6 one. The defaults are one IPv4 address (/32) and one IPv6 /64:
 * a host is usually given a whole /64 and picks addresses in it freely, while IPv4 addresses are
 * scarce, and the honest nodes this overlay is built for sit side by side in campus and ISP subnets,
 * where a /24 would hold many of them. A simulated host's address is the vertex number read as an
 * IPv4 address. Loopback addresses are not limited (unless {@code limitLoopback}): only processes on
 * the node's own machine can prove one (see {@link SourceGroup}).
 *
 * @param idsPerSource    most distinct node IDs from one source kept at once; raise it where many
 *                        honest nodes share one address (behind one NAT)
 * @param ipv4PrefixBits  leading bits of an IPv4 address that name its source, 1 to 32
 * @param ipv6PrefixBits  leading bits of an IPv6 address that name its source, 1 to 128
 * @param limitLoopback   count loopback addresses too (127.x.y.z, ::1), each as its own source: for
 *                        tests of the limit on one machine; off by default, where a cluster on
 *                        127.0.0.1 would otherwise be held to the limit
 */
public record SourceLimits(int idsPerSource, int ipv4PrefixBits, int ipv6PrefixBits, boolean limitLoopback) {
    /** Default of {@link #idsPerSource}: a few nodes per machine or per small NAT, far fewer than a leaf set. */
    public static final int DEFAULT_IDS_PER_SOURCE = 4;
    public static final int DEFAULT_IPV4_PREFIX_BITS = 32;
    public static final int DEFAULT_IPV6_PREFIX_BITS = 64;

    public SourceLimits {
        if (idsPerSource < 1 || ipv4PrefixBits < 1 || ipv4PrefixBits > 32 || ipv6PrefixBits < 1 || ipv6PrefixBits > 128) {
            throw new IllegalArgumentException("need idsPerSource >= 1, an IPv4 prefix of 1-32 bits and an IPv6 prefix of "
                    + "1-128 bits, got " + idsPerSource + ", /" + ipv4PrefixBits + ", /" + ipv6PrefixBits);
        }
    }

    public static SourceLimits defaults() {
        return new SourceLimits(DEFAULT_IDS_PER_SOURCE, DEFAULT_IPV4_PREFIX_BITS, DEFAULT_IPV6_PREFIX_BITS, false);
    }

    /** These limits with another number of IDs per source. */
    public SourceLimits withIdsPerSource(int n) {
        return new SourceLimits(n, ipv4PrefixBits, ipv6PrefixBits, limitLoopback);
    }

    /** These limits with other prefix lengths. */
    public SourceLimits withPrefixes(int ipv4Bits, int ipv6Bits) {
        return new SourceLimits(idsPerSource, ipv4Bits, ipv6Bits, limitLoopback);
    }

    /** These limits counting loopback addresses too (each address its own source, whatever the prefix). */
    public SourceLimits limitingLoopback() {
        return new SourceLimits(idsPerSource, ipv4PrefixBits, ipv6PrefixBits, true);
    }
}
