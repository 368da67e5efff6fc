package io.riptide.core.runtime;

import io.riptide.core.id.Id;

/** A node as its peers know it: its ID (proven by its key on connect) and the address it listens on. */
public record NodeHandle(Id id, NodeAddress address) {
    public NodeHandle {
        if (id == null || address == null) {
            throw new IllegalArgumentException("a node handle needs an ID and an address");
        }
    }

    @Override
    public String toString() {
        return id.shortHex() + "@" + address;
    }
}
