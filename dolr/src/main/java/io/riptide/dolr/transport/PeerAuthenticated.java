package io.riptide.dolr.transport;

import io.riptide.core.runtime.NodeHandle;

/**
 * Pipeline event: the peer proved its key; {@code peer} is its proven ID and advertised address, and
 * {@code version} the wire version the link runs at.
 */
record PeerAuthenticated(NodeHandle peer, int version) {
}
