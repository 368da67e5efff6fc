package io.riptide.proxy.front;

import io.riptide.proxy.ProxyStats.Cap;
import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The caps on open browser connections: all clients together ({@code --max-connections}, which keeps
 * the process within its file descriptors) and each client address ({@code --max-connections-per-client},
 * so one host cannot take them all). A client on the proxy's own host is held to the global cap only:
 * on a laptop every connection comes from 127.0.0.1, the browser's and every local tool's alike.
 * Thread-safe: connections are accepted on every event loop.
 */
final class ConnectionCaps {
    private final int max;
    private final int maxPerClient;
    private final AtomicInteger open = new AtomicInteger();
    // Only addresses with a connection open have an entry, so the map is bounded by the global cap.
    private final ConcurrentHashMap<InetAddress, Integer> perClient = new ConcurrentHashMap<>();

    ConnectionCaps(int max, int maxPerClient) {
        this.max = max;
        this.maxPerClient = maxPerClient;
    }

    /**
     * Opens a connection from {@code client} if both caps allow (the per-client one unless
     * {@code ownHost}), returning null; else the cap it is over, and nothing is counted. Every
     * connection opened is closed with {@link #close} and the same arguments.
     */
    Cap open(InetAddress client, boolean ownHost) {
        for (int n; (n = open.get()) < max; ) {
            if (open.compareAndSet(n, n + 1)) {
                if (ownHost || openForClient(client)) {
                    return null;
                }
                open.decrementAndGet();
                return Cap.PER_CLIENT;
            }
        }
        return Cap.GLOBAL;
    }

    void close(InetAddress client, boolean ownHost) {
        if (!ownHost) {
            perClient.computeIfPresent(client, (a, n) -> n <= 1 ? null : n - 1);
        }
        open.decrementAndGet();
    }

    /** Connections open now. */
    int open() {
        return open.get();
    }

    private boolean openForClient(InetAddress client) {
        boolean[] opened = {false};
        perClient.compute(client, (a, n) -> {
            int now = n == null ? 0 : n;
            if (now >= maxPerClient) {
                return n;
            }
            opened[0] = true;
            return now + 1;
        });
        return opened[0];
    }

    int max() {
        return max;
    }

    int maxPerClient() {
        return maxPerClient;
    }
}
