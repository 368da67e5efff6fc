package io.riptide.dolr.transport;

import io.riptide.core.runtime.NodeHandle;

/** Pipeline event: the peer proved its key; {@code peer} is its proven ID and advertised address. */
record PeerAuthenticated(NodeHandle peer) {
}
