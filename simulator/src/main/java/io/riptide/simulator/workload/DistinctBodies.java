package io.riptide.simulator.workload;

import io.riptide.core.id.Id;

/**
 * Bodies for simulated objects that differ per object: a node's content store keeps one copy of
 * identical bodies, so objects sharing an all-zero body of one size would occupy one body's room and
 * copy without moving bytes, and occupancy and transfer figures would be wrong.
 */
public final class DistinctBodies {
    private DistinctBodies() {
    }

    /** A body of {@code sizeBytes} unique to {@code guid}: the GUID's bytes, then zeros (cut short if smaller). */
    public static byte[] of(Id guid, int sizeBytes) {
        byte[] body = new byte[sizeBytes];
        byte[] id = guid.toBytes();
        System.arraycopy(id, 0, body, 0, Math.min(id.length, sizeBytes));
        return body;
    }
}
