package io.riptide.dolr.server;

import io.riptide.core.id.Id;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/** The ideal leaf sets of a set of live node IDs: what every node's leaf set should converge to. */
final class Ring {
    private final TreeSet<Id> live;

    Ring(Collection<Id> ids) {
        this.live = new TreeSet<>(ids);
    }

    /** The {@code half} nearest live IDs on each side of {@code id}, as one set. */
    Set<Id> leafSet(Id id, int half) {
        Set<Id> out = new HashSet<>();
        Id cursor = id;
        for (int i = 0; i < half && i < live.size() - 1; i++) {
            Id next = live.higher(cursor);
            cursor = next == null ? live.first() : next;
            out.add(cursor);
        }
        cursor = id;
        for (int i = 0; i < half && i < live.size() - 1; i++) {
            Id prev = live.lower(cursor);
            cursor = prev == null ? live.last() : prev;
            out.add(cursor);
        }
        out.remove(id);
        return out;
    }
}
