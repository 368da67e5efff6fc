package io.riptide.proxy.cache;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.dolr.client.ObjectRead;
import io.riptide.dolr.client.OverlayAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Collapsed forwarding for overlay reads: requests for a GUID that arrive while a read of it is in
 * flight wait for that read instead of starting their own (Squid's {@code collapsed_forwarding},
 * Varnish's request coalescing, nginx's {@code proxy_cache_lock}). In a crowd this is what keeps a
 * proxy from sending the same object over its stub's uplink once per request: on a 1.5 Mb/s link
 * the copies queue behind each other until every read misses its deadline and goes to the origin.
 *
 * <p>Each waiter keeps its own deadline (the caller's timer); this class only shares the answer. A
 * read that has not answered within {@code maxShare} is no longer joined, and forgotten, so a lost
 * read neither stalls later requests nor holds memory. Runs on the cache's loop.
 */
final class SharedReads {
    private final Env env;
    private final OverlayAccess overlay;
    private final int ttl;
    private final Duration maxShare;
    private final Map<Id, Read> inFlight = new HashMap<>();
    private long started;
    private long joined;

    /** One read in flight and who waits for it. */
    private static final class Read {
        final List<Consumer<ObjectRead>> waiters = new ArrayList<>(2);
    }

    SharedReads(Env env, OverlayAccess overlay, int ttl, Duration maxShare) {
        this.env = env;
        this.overlay = overlay;
        this.ttl = ttl;
        this.maxShare = maxShare;
    }

    /** Reads {@code guid}, or joins the read of it already in flight; {@code done} gets the answer. */
    void read(Id guid, Consumer<ObjectRead> done) {
        Read current = inFlight.get(guid);
        if (current != null) {
            joined++;
            current.waiters.add(done);
            return;
        }
        Read read = new Read();
        read.waiters.add(done);
        inFlight.put(guid, read);
        started++;
        // Past the longest deadline a waiter may have, the read is dead to newcomers (and its entry goes).
        env.schedule(maxShare, () -> inFlight.remove(guid, read));
        overlay.read(guid, ttl, reply -> {
            inFlight.remove(guid, read);
            for (Consumer<ObjectRead> waiter : read.waiters) {
                waiter.accept(reply);
            }
        });
    }

    /** Overlay reads started. */
    long started() {
        return started;
    }

    /** Requests that joined a read already in flight instead of starting one. */
    long joined() {
        return joined;
    }

    /** Reads in flight now. */
    int inFlight() {
        return inFlight.size();
    }
}
