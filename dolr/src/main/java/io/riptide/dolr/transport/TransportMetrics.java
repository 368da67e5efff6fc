package io.riptide.dolr.transport;

/**
 * A snapshot of a {@link TcpTransport}'s counters. All are totals since start except
 * {@code openConnections}.
 *
 * @param connectionsIn connections accepted from peers, including those refused at once over a cap
 * @param connectionsOut connections this node opened
 * @param openConnections connections open now, either direction, authenticated or not
 * @param unauthenticatedConnections inbound connections open now whose peer has not yet proved a key
 * @param refusedOverSourceCap inbound connections closed at once, before reading, because their source
 *     address already had the most unauthenticated connections allowed
 * @param refusedOverTotalCap inbound connections closed at once, before reading, because the node
 *     already had the most unauthenticated connections allowed
 * @param handshakesFailed connections refused because they did not prove a key in time and in order
 * @param handshakesTimedOut of {@code handshakesFailed}, those whose peer had not proved a key by the
 *     handshake timeout
 * @param handshakesVersionRefused of {@code handshakesFailed}, those whose peer speaks no wire version
 *     this node speaks
 * @param handshakesAddressRefused of {@code handshakesFailed}, those whose peer advertised an address its
 *     connection does not prove (another IP than it connects from, or than the one dialed)
 * @param framesRefused connections closed for a frame that is too long, negative or undecodable
 * @param framesOverHandshakeCap of {@code framesRefused}, those whose frame was announced longer than
 *     a handshake frame may be, before the peer had proved a key
 * @param framesFailedAuthentication of {@code framesRefused}, those whose frame, after the handshake,
 *     failed authentication: altered on the way, forged, replayed, reordered, or one missing before it
 * @param messagesSent messages written to a peer's socket
 * @param messagesReceived messages decoded from authenticated peers
 * @param messagesDropped messages not sent (peer unreachable, queue full, peer not reading, too
 *     big) or not delivered (the node's loop refused them)
 * @param bytesIn bytes read from sockets
 * @param bytesOut bytes handed to sockets
 */
public record TransportMetrics(
        long connectionsIn,
        long connectionsOut,
        int openConnections,
        int unauthenticatedConnections,
        long refusedOverSourceCap,
        long refusedOverTotalCap,
        long handshakesFailed,
        long handshakesTimedOut,
        long handshakesVersionRefused,
        long handshakesAddressRefused,
        long framesRefused,
        long framesOverHandshakeCap,
        long framesFailedAuthentication,
        long messagesSent,
        long messagesReceived,
        long messagesDropped,
        long bytesIn,
        long bytesOut) {
}
