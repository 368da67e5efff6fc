package io.riptide.dolr.transport;

import java.net.SocketAddress;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the peers refused because their connection does not prove the address they advertise
 * ({@link AddressProof}), and tells the operator at WARN at most once a minute (the rest at DEBUG), so
 * that a peer trying again and again cannot fill the log. An honest node is refused so only when its
 * host connects out from another address than the one it listens on (a multi-homed host, a NAT):
 * the operator should know.
 */
final class AddressRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(AddressRefusals.class);
    static final long WARN_EVERY_NANOS = WarnGate.EVERY_NANOS;

    private final TransportCounters counters;
    private final WarnGate warnGate;

    AddressRefusals(TransportCounters counters) {
        this(counters, System::nanoTime);
    }

    AddressRefusals(TransportCounters counters, LongSupplier nanoTime) {
        this.counters = counters;
        this.warnGate = new WarnGate(nanoTime);
    }

    /** {@code peer} was refused for {@code reason}; returns whether that was logged at WARN. */
    boolean refused(SocketAddress peer, String reason) {
        counters.handshakeAddressRefused();
        if (warnGate.open()) {
            LOG.warn("refused peer {}: its connection does not prove its address: {} (further refusals within a minute "
                    + "at DEBUG; all counted in riptide_transport_handshakes_address_refused_total; see "
                    + "accept-unproved-addresses)", peer, reason);
            return true;
        }
        LOG.debug("refused peer {}: its connection does not prove its address: {}", peer, reason);
        return false;
    }
}
