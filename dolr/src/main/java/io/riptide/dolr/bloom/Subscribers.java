package io.riptide.dolr.bloom;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The peers that keep a filter of the link to this node: those that pulled its advertisement lately.
 * Local areas are not symmetric (this node may be among a peer's nearest but not the other way
 * round), so the pullers, not this node's own neighbours, are the ones a pushed change is for.
 * Bounded: when full, the peer that pulled longest ago makes room.
 */
final class Subscribers {
    private record Entry(NodeHandle peer, long lastPullNanos) {
    }

    private final int capacity;
    private final Map<Id, Entry> entries = new LinkedHashMap<>();

    Subscribers(int capacity) {
        this.capacity = capacity;
    }

    /** {@code peer} pulled at {@code nowNanos}. */
    void pulled(NodeHandle peer, long nowNanos) {
        entries.remove(peer.id()); // re-inserted last: the map stays ordered by last pull
        if (entries.size() >= capacity) {
            Iterator<Id> oldest = entries.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        entries.put(peer.id(), new Entry(peer, nowNanos));
    }

    /** Forgets {@code id} (it failed). */
    void remove(Id id) {
        entries.remove(id);
    }

    /** The peers that pulled at or after {@code sinceNanos}; older ones are forgotten. */
    List<NodeHandle> since(long sinceNanos) {
        entries.values().removeIf(e -> e.lastPullNanos() < sinceNanos);
        List<NodeHandle> out = new ArrayList<>(entries.size());
        for (Entry e : entries.values()) {
            out.add(e.peer());
        }
        return out;
    }

    int size() {
        return entries.size();
    }
}
