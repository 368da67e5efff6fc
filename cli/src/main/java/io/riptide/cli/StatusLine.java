package io.riptide.cli;

import io.riptide.dolr.server.NodeStatus;

/** Formats a node's status as the one line {@code riptide node} prints now and then. */
final class StatusLine {
    private StatusLine() {
    }

    /** For example {@code status: joined, leaf set 2, routing table 2, peers 2, replicas 0, pointers 0, messages in 40 out 41}. */
    static String of(NodeStatus s) {
        return String.format("status: %s, leaf set %d, routing table %d, peers %d, replicas %d, pointers %d,"
                        + " messages in %d out %d, failures detected %d",
                s.joined() ? "joined" : "joining", s.leafSetSize(), s.routingEntries(), s.knownPeers(), s.replicas(),
                s.pointers(), s.transport().messagesReceived(), s.transport().messagesSent(), s.failuresDetected());
    }
}
