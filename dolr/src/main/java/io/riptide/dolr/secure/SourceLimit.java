package io.riptide.dolr.secure;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Keeps a node's routing state to at most {@link SourceLimits#idsPerSource} distinct node IDs from
 * one source (address prefix, {@link SourceGroup}): a node that would be one more is refused and
 * counted. The node asks before each insertion; what is in the state already is not judged again.
 * Protocol code on the node's loop: no locks.
 */
public final class SourceLimit {
    private final SourceLimits limits;
    private final Supplier<Iterable<NodeHandle>> routingState;
    private long refused;
    private String lastRefusedSource;

    /** {@code routingState} lists every node in the routing table and leaf set now. */
    public SourceLimit(SourceLimits limits, Supplier<Iterable<NodeHandle>> routingState) {
        this.limits = limits;
        this.routingState = routingState;
    }

    /**
     * Whether {@code peer}, not yet in the routing state, may enter it: its source holds fewer than
     * the limit of other IDs there. A refusal is counted.
     */
    public boolean admits(NodeHandle peer) {
        String source = SourceGroup.of(peer.address(), limits);
        if (source == null) {
            return true;
        }
        Set<Id> fromSource = new HashSet<>();
        for (NodeHandle h : routingState.get()) {
            if (!h.id().equals(peer.id()) && sameSource(peer, source, h)) {
                fromSource.add(h.id());
                if (fromSource.size() >= limits.idsPerSource()) {
                    refused++;
                    lastRefusedSource = source;
                    return false;
                }
            }
        }
        return true;
    }

    private boolean sameSource(NodeHandle peer, String source, NodeHandle other) {
        if (SourceGroup.isSimulated(peer.address()) && SourceGroup.isSimulated(other.address())) {
            // The cheap comparison, for simulations of thousands of nodes.
            int shift = 32 - limits.ipv4PrefixBits();
            return (peer.address().port() >>> shift) == (other.address().port() >>> shift);
        }
        return source.equals(SourceGroup.of(other.address(), limits));
    }

    /** Nodes refused a place in the routing state because their source already had the most allowed. */
    public long refused() {
        return refused;
    }

    /** The source of the last node refused, or null: for the operator's log. */
    public String lastRefusedSource() {
        return lastRefusedSource;
    }

    public SourceLimits limits() {
        return limits;
    }
}
