package io.riptide.dolr.transport;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The inbound connections whose peers have not yet proved a key, within two caps: so many from one
 * source address, and so many in all. Each costs the node a few KB and a file descriptor for up to
 * the handshake timeout; without the caps anyone could open them by the thousand, and with only the
 * total cap one host could take every place. Connections from this node's own host count toward
 * the total only: a cluster on one machine shares one address, and its joins come in bursts. Shared
 * by the I/O loops, so synchronised.
 */
final class UnauthenticatedConnections {
    private final int perSource;
    private final int total;
    private final TransportCounters counters;
    private final Map<InetAddress, Integer> bySource = new HashMap<>();
    private int count;

    UnauthenticatedConnections(int perSource, int total, TransportCounters counters) {
        this.perSource = perSource;
        this.total = total;
        this.counters = counters;
    }

    /**
     * A place for a new connection from {@code source} (null: from this host, or from no IP address,
     * held to the total cap only), or null (counted) when a cap is reached. The place is to be freed
     * as soon as the peer has proved its key or the connection closes.
     */
    synchronized Place admit(InetAddress source) {
        if (count >= total) {
            counters.refusedOverTotalCap();
            return null;
        }
        if (source != null) {
            int fromSource = bySource.getOrDefault(source, 0);
            if (fromSource >= perSource) {
                counters.refusedOverSourceCap();
                return null;
            }
            bySource.put(source, fromSource + 1);
        }
        count++;
        return new Place(source);
    }

    /** Connections holding a place now. */
    synchronized int count() {
        return count;
    }

    private synchronized void free(InetAddress source) {
        if (source != null) {
            // Entries go when their count does, so the map never holds more than the total cap.
            bySource.computeIfPresent(source, (k, n) -> n > 1 ? n - 1 : null);
        }
        count--;
    }

    /** One admitted connection's place. */
    final class Place {
        private final InetAddress source;
        private final AtomicBoolean freed = new AtomicBoolean();

        private Place(InetAddress source) {
            this.source = source;
        }

        /** Frees the place; again is a no-op (the proof and the close both free it). */
        void free() {
            if (freed.compareAndSet(false, true)) {
                UnauthenticatedConnections.this.free(source);
            }
        }
    }
}
