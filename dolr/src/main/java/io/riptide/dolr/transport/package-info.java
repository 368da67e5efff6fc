/**
 * The overlay's TCP transport: {@link io.riptide.dolr.transport.TcpTransport} listens and dials, one
 * connection per peer ({@code PeerLinks}), each with a pipeline of one-concern handlers
 * ({@code ConnectionPipeline}): frames, the handshake that proves the peer's key and agrees the link's
 * keys ({@code HandshakeHandler}, {@code LinkKeys}: X25519, HKDF-SHA256), then every frame sealed
 * with AES-256-GCM under a per-direction counter nonce ({@code FrameSealer}, {@code FrameOpener},
 * {@code FrameAead}) and the node's protocol. Until that proof a connection is held to a few KB and to
 * the handshake timeout, and inbound ones are capped per source address and in all
 * ({@code UnauthenticatedConnections}). A proven peer must also advertise the address its connection
 * proves ({@code AddressProof}: the source IP of an inbound connection, the IP dialed of an outbound
 * one), or it is refused and counted ({@code AddressRefusals}). Limits in {@link io.riptide.dolr.transport.TransportConfig},
 * counters in {@link io.riptide.dolr.transport.TransportMetrics}; a lost peer is reported to the owner.
 */
package io.riptide.dolr.transport;
