package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The prefix-routing table: row r, column d holds nodes that share the first r digits with this
 * node and have d as digit r. Each slot keeps up to a few candidates sorted by measured RTT, so the
 * nearest one routes (proximity neighbour selection) and the others stand by as backups. Rows are
 * allocated on first use; a node in a network of N nodes fills about log16 N of them.
 */
public final class RoutingTable {
    private final Id self;
    private final int perSlot;
    private final Slot[][] rows = new Slot[Id.DIGITS][];

    private static final class Slot {
        final NodeHandle[] handles;
        final long[] rtts;
        int size;

        Slot(int capacity) {
            handles = new NodeHandle[capacity];
            rtts = new long[capacity];
        }

        int indexOf(Id id) {
            for (int i = 0; i < size; i++) {
                if (handles[i].id().equals(id)) {
                    return i;
                }
            }
            return -1;
        }

        void removeAt(int i) {
            System.arraycopy(handles, i + 1, handles, i, size - i - 1);
            System.arraycopy(rtts, i + 1, rtts, i, size - i - 1);
            size--;
            handles[size] = null;
        }

        void insertSorted(NodeHandle h, long rtt) {
            int i = size;
            while (i > 0 && rtts[i - 1] > rtt) {
                handles[i] = handles[i - 1];
                rtts[i] = rtts[i - 1];
                i--;
            }
            handles[i] = h;
            rtts[i] = rtt;
            size++;
        }
    }

    public RoutingTable(Id self, int perSlot) {
        this.self = self;
        this.perSlot = perSlot;
    }

    /** The row a node belongs in: the length of the prefix it shares with this node. */
    public int rowOf(Id id) {
        return self.sharedPrefixLength(id);
    }

    /**
     * Offers a measured candidate. It is kept if its slot has room or it is nearer than the slot's
     * farthest candidate (which is then dropped). Returns true if the table changed.
     */
    public boolean offer(NodeHandle candidate, long rttNanos) {
        Id id = candidate.id();
        int row = rowOf(id);
        if (row >= Id.DIGITS) {
            return false; // ourselves
        }
        int col = id.digit(row);
        Slot[] r = rows[row];
        if (r == null) {
            r = rows[row] = new Slot[Id.BASE];
        }
        Slot slot = r[col];
        if (slot == null) {
            slot = r[col] = new Slot(perSlot);
        }
        int existing = slot.indexOf(id);
        if (existing >= 0) {
            if (slot.rtts[existing] == rttNanos && slot.handles[existing].equals(candidate)) {
                return false;
            }
            slot.removeAt(existing);
        } else if (slot.size == perSlot) {
            if (slot.rtts[perSlot - 1] <= rttNanos) {
                return false;
            }
            slot.removeAt(perSlot - 1);
        }
        slot.insertSorted(candidate, rttNanos);
        return true;
    }

    /**
     * Whether {@link #offer} would keep a candidate at {@code rttNanos}: its slot has room, it is
     * there already, or it is nearer than the slot's farthest. Lets a node skip measuring candidates
     * that could not change the table.
     */
    public boolean wouldKeep(Id id, long rttNanos) {
        int row = rowOf(id);
        if (row >= Id.DIGITS) {
            return false;
        }
        Slot[] r = rows[row];
        Slot slot = r == null ? null : r[id.digit(row)];
        return slot == null || slot.size < perSlot || slot.indexOf(id) >= 0 || rttNanos < slot.rtts[perSlot - 1];
    }

    /** Drops the node with {@code id} wherever it is; the slot's next candidate takes over. Returns true if present. */
    public boolean remove(Id id) {
        int row = rowOf(id);
        if (row >= Id.DIGITS || rows[row] == null) {
            return false;
        }
        Slot slot = rows[row][id.digit(row)];
        if (slot == null) {
            return false;
        }
        int i = slot.indexOf(id);
        if (i < 0) {
            return false;
        }
        slot.removeAt(i);
        return true;
    }

    /** Whether the node with {@code id} is in the table. */
    public boolean contains(Id id) {
        int row = rowOf(id);
        if (row >= Id.DIGITS || rows[row] == null) {
            return false;
        }
        Slot slot = rows[row][id.digit(row)];
        return slot != null && slot.indexOf(id) >= 0;
    }

    /** The candidates of one slot, nearest first (empty if none). */
    public List<NodeHandle> slot(int row, int col) {
        Slot[] r = rows[row];
        if (r == null || r[col] == null) {
            return List.of();
        }
        Slot s = r[col];
        List<NodeHandle> out = new ArrayList<>(s.size);
        for (int i = 0; i < s.size; i++) {
            out.add(s.handles[i]);
        }
        return out;
    }

    /** Candidate {@code i} of a slot, nearest first; the router reads slots this way to avoid {@link #slot}'s copy. */
    NodeHandle candidate(int row, int col, int i) {
        return rows[row][col].handles[i];
    }

    /** The RTT candidate {@code i} of a slot was kept at. */
    long candidateRtt(int row, int col, int i) {
        return rows[row][col].rtts[i];
    }

    /** The nearest candidate of a slot, or null. */
    public NodeHandle primary(int row, int col) {
        Slot[] r = rows[row];
        if (r == null || r[col] == null || r[col].size == 0) {
            return null;
        }
        return r[col].handles[0];
    }

    /** Candidates in a slot. */
    public int slotSize(int row, int col) {
        Slot[] r = rows[row];
        return r == null || r[col] == null ? 0 : r[col].size;
    }

    /** The primary entry of every non-empty slot in {@code row}. */
    public List<NodeHandle> row(int row) {
        List<NodeHandle> out = new ArrayList<>();
        if (row < 0 || row >= Id.DIGITS || rows[row] == null) {
            return out;
        }
        for (int col = 0; col < Id.BASE; col++) {
            NodeHandle h = primary(row, col);
            if (h != null) {
                out.add(h);
            }
        }
        return out;
    }

    /** Every candidate in the table, row by row. */
    public List<NodeHandle> all() {
        List<NodeHandle> out = new ArrayList<>();
        for (int row = 0; row < Id.DIGITS; row++) {
            if (rows[row] == null) {
                continue;
            }
            for (int col = 0; col < Id.BASE; col++) {
                out.addAll(slot(row, col));
            }
        }
        return out;
    }

    /** Every primary entry in the table. */
    public List<NodeHandle> primaries() {
        List<NodeHandle> out = new ArrayList<>();
        for (int row = 0; row < Id.DIGITS; row++) {
            out.addAll(row(row));
        }
        return out;
    }

    /**
     * How many rows there are down to the deepest row holding an entry (empty rows above it count):
     * the range of rows maintenance picks from. 0 for an empty table.
     */
    public int populatedRows() {
        int n = 0;
        for (int row = 0; row < Id.DIGITS; row++) {
            if (!row(row).isEmpty()) {
                n = row + 1;
            }
        }
        return n;
    }

    public Id self() {
        return self;
    }
}
