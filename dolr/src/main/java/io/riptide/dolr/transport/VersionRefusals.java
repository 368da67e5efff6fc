package io.riptide.dolr.transport;

import java.net.SocketAddress;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the peers refused for having no wire version in common, and tells the operator: unlike other
 * failed handshakes this is usually a deployment mistake, so it is logged at WARN with both ranges,
 * but at most once a minute (the others at DEBUG), so that a peer connecting again and again cannot
 * fill the log.
 */
final class VersionRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(VersionRefusals.class);
    static final long WARN_EVERY_NANOS = WarnGate.EVERY_NANOS;

    private final TransportCounters counters;
    private final WarnGate warnGate;

    VersionRefusals(TransportCounters counters) {
        this(counters, System::nanoTime);
    }

    VersionRefusals(TransportCounters counters, LongSupplier nanoTime) {
        this.counters = counters;
        this.warnGate = new WarnGate(nanoTime);
    }

    /**
     * {@code peer} was refused because {@code ours} and its {@code offer} have no version in common;
     * returns whether that was logged at WARN.
     */
    boolean refused(SocketAddress peer, WireVersions ours, WireVersions.Offer offer) {
        counters.handshakeVersionRefused();
        if (warnGate.open()) {
            LOG.warn("refused {}: {} (further refusals within a minute at DEBUG; all counted in "
                    + "riptide_transport_handshakes_version_refused_total)", peer, ours.noneInCommon(offer));
            return true;
        }
        LOG.debug("refused {}: {}", peer, ours.noneInCommon(offer));
        return false;
    }
}
