package io.riptide.dolr.location;

import io.riptide.core.id.Id;

/**
 * The further roots of a GUID (Castro et al., "Secure routing for structured peer-to-peer overlay
 * networks", 2002: replicas at the roots of several salted keys). The routes toward them from one
 * node share little beyond the first hops, so a hostile node on or at the end of one route does not
 * sit on the others, and a read that failed one way can try another.
 */
public final class SaltedRoots {
    /** The most salted roots a node will publish to: each adds a route per publish and republish. */
    public static final int MAX = 8;

    private SaltedRoots() {
    }

    /** The key of {@code guid}'s salted root number {@code salt} (from 1); salt 0 is the GUID itself. */
    public static Id key(Id guid, int salt) {
        if (salt == 0) {
            return guid;
        }
        return Id.hash(guid.toBytes(), new byte[] {'s', 'a', 'l', 't', (byte) salt});
    }
}
