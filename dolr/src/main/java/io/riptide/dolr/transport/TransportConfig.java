package io.riptide.dolr.transport;

import io.riptide.core.wire.Frames;
import java.time.Duration;

/**
 * The limits of a {@link TcpTransport}.
 *
 * @param maxFrameBytes largest frame accepted or sent, counting the version byte and the body
 * @param connectTimeout how long an outbound TCP connect may take
 * @param handshakeTimeout how long a new connection may take to prove its key before it is refused
 * @param idleTimeout a connection with no traffic either way for this long is closed
 * @param maxPendingBytesPerPeer bytes queued for one peer and not yet written to its socket; more
 *     is dropped. Half of it is the channel's high water mark, so an established connection to a
 *     peer that stops reading turns unwritable (and drops) before the bound is reached.
 * @param reconnectBackoff after a failed connect or handshake, sends to that address are dropped
 *     for this long instead of hammering it with connects
 * @param maxUnauthenticatedPerSource most inbound connections from one source address whose peers
 *     have not yet proved a key; one more is closed before anything is read from it
 * @param maxUnauthenticated most inbound connections in all whose peers have not yet proved a key;
 *     one more is closed before anything is read from it
 * @param wireVersions the wire versions this node speaks; each link runs at the highest both ends
 *     speak. All this build speaks by default; version 8 alone makes the node's handshake and
 *     frames the previous release's, byte for byte (see docs/operations.md, rolling upgrades)
 * @param checkAdvertisedAddress refuse a peer whose connection does not prove the address it
 *     advertises ({@link AddressProof}: inbound, the IP it connects from; outbound, the IP dialed).
 *     On by default; off only where honest nodes connect from another address than they listen on
 */
public record TransportConfig(
        int maxFrameBytes,
        Duration connectTimeout,
        Duration handshakeTimeout,
        Duration idleTimeout,
        int maxPendingBytesPerPeer,
        Duration reconnectBackoff,
        int maxUnauthenticatedPerSource,
        int maxUnauthenticated,
        WireVersions wireVersions,
        boolean checkAdvertisedAddress) {

    /**
     * Default of {@link #maxUnauthenticatedPerSource}: a handshake takes milliseconds, so even several
     * honest nodes behind one address seldom have more than one under way.
     */
    public static final int DEFAULT_MAX_UNAUTHENTICATED_PER_SOURCE = 8;
    /**
     * Default of {@link #maxUnauthenticated}: room for many peers connecting at once, while all of them
     * together can make the node buffer about 2 MB (some 8 KiB each, see {@link FrameDecoder}).
     */
    public static final int DEFAULT_MAX_UNAUTHENTICATED = 256;

    public TransportConfig {
        // The length field plus the frame must fit in an int for the frame decoder.
        if (maxFrameBytes < Frames.HEADER_BYTES || maxFrameBytes > Integer.MAX_VALUE - Frames.HEADER_BYTES) {
            throw new IllegalArgumentException("maxFrameBytes out of range: " + maxFrameBytes);
        }
        if (maxPendingBytesPerPeer < 2) {
            throw new IllegalArgumentException("maxPendingBytesPerPeer must be at least 2: " + maxPendingBytesPerPeer);
        }
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(handshakeTimeout, "handshakeTimeout");
        requirePositive(idleTimeout, "idleTimeout");
        if (reconnectBackoff == null || reconnectBackoff.isNegative()) {
            throw new IllegalArgumentException("reconnectBackoff must not be negative");
        }
        if (maxUnauthenticatedPerSource < 1 || maxUnauthenticated < maxUnauthenticatedPerSource) {
            throw new IllegalArgumentException("need 1 <= maxUnauthenticatedPerSource <= maxUnauthenticated, got "
                    + maxUnauthenticatedPerSource + " and " + maxUnauthenticated);
        }
        if (wireVersions == null) {
            throw new IllegalArgumentException("wireVersions must be given");
        }
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
    }

    /** Defaults for a node on the open network. */
    public static TransportConfig defaults() {
        return new TransportConfig(Frames.DEFAULT_MAX_FRAME_BYTES, Duration.ofSeconds(5), Duration.ofSeconds(10),
                Duration.ofMinutes(2), 2 * Frames.DEFAULT_MAX_FRAME_BYTES, Duration.ofMillis(250),
                DEFAULT_MAX_UNAUTHENTICATED_PER_SOURCE, DEFAULT_MAX_UNAUTHENTICATED, WireVersions.all(), true);
    }

    /** This config with another maximum frame size. */
    public TransportConfig withMaxFrameBytes(int bytes) {
        return new TransportConfig(bytes, connectTimeout, handshakeTimeout, idleTimeout, maxPendingBytesPerPeer,
                reconnectBackoff, maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, checkAdvertisedAddress);
    }

    /** This config with another connect timeout. */
    public TransportConfig withConnectTimeout(Duration timeout) {
        return new TransportConfig(maxFrameBytes, timeout, handshakeTimeout, idleTimeout, maxPendingBytesPerPeer,
                reconnectBackoff, maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, checkAdvertisedAddress);
    }

    /** This config with another handshake timeout. */
    public TransportConfig withHandshakeTimeout(Duration timeout) {
        return new TransportConfig(maxFrameBytes, connectTimeout, timeout, idleTimeout, maxPendingBytesPerPeer,
                reconnectBackoff, maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, checkAdvertisedAddress);
    }

    /** This config with another idle timeout. */
    public TransportConfig withIdleTimeout(Duration timeout) {
        return new TransportConfig(maxFrameBytes, connectTimeout, handshakeTimeout, timeout, maxPendingBytesPerPeer,
                reconnectBackoff, maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, checkAdvertisedAddress);
    }

    /** This config with another bound on bytes pending per peer. */
    public TransportConfig withMaxPendingBytesPerPeer(int bytes) {
        return new TransportConfig(maxFrameBytes, connectTimeout, handshakeTimeout, idleTimeout, bytes, reconnectBackoff,
                maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, checkAdvertisedAddress);
    }

    /** This config with another reconnect backoff. */
    public TransportConfig withReconnectBackoff(Duration backoff) {
        return new TransportConfig(maxFrameBytes, connectTimeout, handshakeTimeout, idleTimeout, maxPendingBytesPerPeer,
                backoff, maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, checkAdvertisedAddress);
    }

    /** This config with other caps on connections whose peers have not yet proved a key. */
    public TransportConfig withMaxUnauthenticated(int perSource, int total) {
        return new TransportConfig(maxFrameBytes, connectTimeout, handshakeTimeout, idleTimeout, maxPendingBytesPerPeer,
                reconnectBackoff, perSource, total, wireVersions, checkAdvertisedAddress);
    }

    /** This config with other wire versions spoken. */
    public TransportConfig withWireVersions(WireVersions versions) {
        return new TransportConfig(maxFrameBytes, connectTimeout, handshakeTimeout, idleTimeout, maxPendingBytesPerPeer,
                reconnectBackoff, maxUnauthenticatedPerSource, maxUnauthenticated, versions, checkAdvertisedAddress);
    }

    /** This config checking, or not, that each peer's connection proves the address it advertises. */
    public TransportConfig withAdvertisedAddressCheck(boolean check) {
        return new TransportConfig(maxFrameBytes, connectTimeout, handshakeTimeout, idleTimeout, maxPendingBytesPerPeer,
                reconnectBackoff, maxUnauthenticatedPerSource, maxUnauthenticated, wireVersions, check);
    }
}
