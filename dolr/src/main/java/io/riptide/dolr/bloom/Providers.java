package io.riptide.dolr.bloom;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nearby peers outside the nearest few that lately answered this node's reads, with their RTTs. A
 * stub's cache manager node holds most of its replicas, yet for many of the stub's nodes it is not
 * among their nearest; keeping its filter as if it were a neighbour's turns every later Bloom hit
 * on it into one hop instead of two or three. Bounded: when full, the peer that served longest ago
 * makes room, and one that has not served for a while is let go.
 *
 * <p>The local area keeps its adopted peers (see {@link LocalArea}) in a second instance: there
 * "served" means "asked again to be adopted".
 */
final class Providers {
    private record Entry(NodeHandle peer, long rttNanos, long lastServedNanos) {
    }

    private final int capacity;
    // Ordered by last service, oldest first.
    private final Map<Id, Entry> entries = new LinkedHashMap<>();

    Providers(int capacity) {
        this.capacity = capacity;
    }

    /** {@code peer}, {@code rttNanos} away, served a read at {@code nowNanos}; returns the peer it displaced, or null. */
    NodeHandle served(NodeHandle peer, long rttNanos, long nowNanos) {
        entries.remove(peer.id()); // re-inserted last: the map stays ordered by last service
        NodeHandle displaced = null;
        if (entries.size() >= capacity) {
            Iterator<Entry> oldest = entries.values().iterator();
            displaced = oldest.next().peer();
            oldest.remove();
        }
        entries.put(peer.id(), new Entry(peer, rttNanos, nowNanos));
        return displaced;
    }

    /** Marks a known provider as having served again at {@code nowNanos}; false if it is not one. */
    boolean servedAgain(Id id, long nowNanos) {
        Entry e = entries.remove(id);
        if (e == null) {
            return false;
        }
        entries.put(id, new Entry(e.peer(), e.rttNanos(), nowNanos));
        return true;
    }

    boolean contains(Id id) {
        return entries.containsKey(id);
    }

    /** The provider's measured RTT; only for a provider. */
    long rttNanos(Id id) {
        return entries.get(id).rttNanos();
    }

    /** Forgets {@code id}; true if it was a provider. */
    boolean remove(Id id) {
        return entries.remove(id) != null;
    }

    /** Lets go of the providers that have not served since {@code sinceNanos}, and returns them. */
    List<NodeHandle> expire(long sinceNanos) {
        List<NodeHandle> out = new ArrayList<>();
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (e.lastServedNanos() < sinceNanos) {
                out.add(e.peer());
                it.remove();
            }
        }
        return out;
    }

    /** The providers, oldest service first. */
    List<NodeHandle> peers() {
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
