package io.riptide.dolr.location;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Object pointers this node keeps for others: "a replica of GUID lives at node R, about D away".
 * Soft state: each pointer expires unless republished. Bounded in count; when full, new pointers are
 * refused (their publishers will find room at the next hop or on the next refresh).
 */
public final class PointerStore {
    /** A pointer to one replica. */
    public record Pointer(NodeHandle replica, long distanceNanos, long expiresAt) {
    }

    private final int capacity;
    private final Map<Id, List<Pointer>> byGuid = new HashMap<>();
    private int count;
    private long refused;

    public PointerStore(int capacity) {
        this.capacity = capacity;
    }

    /** Adds or refreshes the pointer from {@code guid} to {@code replica}. Returns false if refused for space. */
    public boolean put(Id guid, NodeHandle replica, long distanceNanos, long expiresAt) {
        List<Pointer> list = byGuid.get(guid);
        if (list != null) {
            for (int i = 0; i < list.size(); i++) {
                Pointer p = list.get(i);
                if (p.replica().id().equals(replica.id())) {
                    list.set(i, new Pointer(replica, Math.min(distanceNanos, p.distanceNanos()), Math.max(expiresAt, p.expiresAt())));
                    return true;
                }
            }
        }
        if (count >= capacity) {
            refused++;
            return false;
        }
        byGuid.computeIfAbsent(guid, g -> new ArrayList<>(2)).add(new Pointer(replica, distanceNanos, expiresAt));
        count++;
        return true;
    }

    /**
     * Lowers the distance of the pointer from {@code guid} to the replica {@code replicaId} to
     * {@code distanceNanos} if that is nearer; a pointer removed meanwhile stays removed.
     */
    public void shorten(Id guid, Id replicaId, long distanceNanos) {
        List<Pointer> list = byGuid.get(guid);
        if (list != null) {
            for (int i = 0; i < list.size(); i++) {
                Pointer p = list.get(i);
                if (p.replica().id().equals(replicaId) && distanceNanos < p.distanceNanos()) {
                    list.set(i, new Pointer(p.replica(), distanceNanos, p.expiresAt()));
                }
            }
        }
    }

    /** Removes the pointer from {@code guid} to the replica {@code replicaId}. */
    public void remove(Id guid, Id replicaId) {
        List<Pointer> list = byGuid.get(guid);
        if (list != null && list.removeIf(p -> p.replica().id().equals(replicaId))) {
            count--;
            if (list.isEmpty()) {
                byGuid.remove(guid);
            }
        }
    }

    /** Removes every pointer to replicas on the node {@code nodeId} (it failed). */
    public void removeNode(Id nodeId) {
        removeIf(p -> p.replica().id().equals(nodeId));
    }

    /** Removes pointers that expired by {@code now}. */
    public void expire(long now) {
        removeIf(p -> p.expiresAt() <= now);
    }

    private void removeIf(Predicate<Pointer> doomed) {
        Iterator<Map.Entry<Id, List<Pointer>>> it = byGuid.entrySet().iterator();
        while (it.hasNext()) {
            List<Pointer> list = it.next().getValue();
            int before = list.size();
            list.removeIf(doomed);
            count -= before - list.size();
            if (list.isEmpty()) {
                it.remove();
            }
        }
    }

    /** The live pointers for {@code guid}, nearest replica first. */
    public List<Pointer> lookup(Id guid, long now) {
        List<Pointer> list = byGuid.get(guid);
        if (list == null) {
            return List.of();
        }
        List<Pointer> out = new ArrayList<>(list.size());
        for (Pointer p : list) {
            if (p.expiresAt() > now) {
                out.add(p);
            }
        }
        out.sort((a, b) -> Long.compare(a.distanceNanos(), b.distanceNanos()));
        return out;
    }

    /** Every GUID with a pointer here. */
    public List<Id> guids() {
        return new ArrayList<>(byGuid.keySet());
    }

    /** Pointers held. */
    public int size() {
        return count;
    }

    /** Pointers refused because the store was full. */
    public long refused() {
        return refused;
    }
}
