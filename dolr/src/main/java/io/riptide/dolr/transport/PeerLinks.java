package io.riptide.dolr.transport;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.NetUtil;
import io.riptide.core.runtime.NodeAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One {@link PeerLink} per peer address. A link that failed to connect stays for the backoff so
 * that sends meanwhile are dropped rather than each opening a connection; a link whose connection
 * closed after working goes at once, so the next send reconnects. Either way the owner is told the
 * address was lost, so that what waits for that peer need not wait for a timeout.
 */
final class PeerLinks {
    private final ConcurrentHashMap<NodeAddress, PeerLink> links = new ConcurrentHashMap<>();
    private final long maxPendingBytes;
    private final Duration backoff;
    private final TransportCounters counters;
    private final Consumer<NodeAddress> onLost;
    private final LinkEncoder encoder;
    private final int newestVersion;

    /**
     * Links whose frames {@code encoder} makes, at {@code newestVersion} until a handshake agrees a
     * version; {@code onLost} hears of every link retired (a connect or handshake failed, or the
     * connection closed).
     */
    PeerLinks(long maxPendingBytes, Duration backoff, TransportCounters counters, Consumer<NodeAddress> onLost,
            LinkEncoder encoder, int newestVersion) {
        this.maxPendingBytes = maxPendingBytes;
        this.backoff = backoff;
        this.counters = counters;
        this.onLost = onLost;
        this.encoder = encoder;
        this.newestVersion = newestVersion;
    }

    /** The version a frame for {@code address} is best encoded at now: its link's, or the newest. */
    int versionTo(NodeAddress address) {
        PeerLink link = links.get(address);
        return link != null ? link.version() : newestVersion;
    }

    /** The wire version of the authenticated link to {@code address}, or empty if there is none. */
    OptionalInt agreedVersion(NodeAddress address) {
        PeerLink link = links.get(address);
        return link != null && link.wasReady() && !link.isClosed() ? OptionalInt.of(link.version()) : OptionalInt.empty();
    }

    /** The link to {@code address}, and whether it was just made (and so must be connected). */
    record Lookup(PeerLink link, boolean created) {
    }

    /** The link to {@code address}, making one on {@code loops.get()} when there is none. */
    Lookup linkTo(NodeAddress address, Supplier<EventLoop> loops) {
        PeerLink existing = links.get(address);
        if (existing != null) {
            return new Lookup(existing, false);
        }
        PeerLink fresh = new PeerLink(address, loops.get(), maxPendingBytes, counters, encoder, newestVersion);
        PeerLink raced = links.putIfAbsent(address, fresh);
        return raced == null ? new Lookup(fresh, true) : new Lookup(raced, false);
    }

    /**
     * Offers an inbound connection from {@code advertised} for sending to it, unless a link exists.
     * Only when the advertised host is the very IP the connection comes from: otherwise any node
     * could claim another's address and receive its traffic. Returns the new link, or null.
     */
    PeerLink adopt(NodeAddress advertised, Channel channel, int version) {
        if (!(channel.remoteAddress() instanceof InetSocketAddress remote) || remote.getAddress() == null) {
            return null;
        }
        byte[] claimed = NetUtil.createByteArrayFromIpAddressString(advertised.host());
        if (claimed == null || !Arrays.equals(claimed, remote.getAddress().getAddress())) {
            return null;
        }
        PeerLink link = new PeerLink(advertised, channel.eventLoop(), maxPendingBytes, counters, encoder, newestVersion);
        if (links.putIfAbsent(advertised, link) != null) {
            return null;
        }
        link.ready(channel, version);
        return link;
    }

    /** Closes {@code link} and forgets it, after the backoff if it never worked; tells the owner it was lost. */
    void retire(PeerLink link) {
        boolean wasOpen = !link.isClosed();
        link.close();
        if (wasOpen) {
            onLost.accept(link.address());
        }
        if (link.wasReady() || backoff.isZero()) {
            links.remove(link.address(), link);
            return;
        }
        try {
            link.loop().schedule(() -> links.remove(link.address(), link), backoff.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            links.remove(link.address(), link);
        }
    }

    /** Bytes waiting on every link together. */
    long pendingBytes() {
        long total = 0;
        for (PeerLink link : links.values()) {
            total += link.pendingBytes();
        }
        return total;
    }

    /** Closes every link. */
    void closeAll() {
        links.values().forEach(PeerLink::close);
        links.clear();
    }
}
