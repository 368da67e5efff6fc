package io.riptide.dolr.routing;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What this node knows of the peers it has met: their measured round-trip time, when they were last
 * heard from, and whether they are believed failed. Bounded: the least recently touched peers are
 * forgotten first.
 */
public final class PeerTable {
    /** A peer's round-trip estimate and liveness. */
    public static final class Peer {
        private final NodeHandle handle;
        private long rttNanos = -1;
        private long minRttNanos = -1;
        private long minRttAt;
        private int samples;
        private long lastSampleAt;
        private long lastHeard = Long.MIN_VALUE;

        Peer(NodeHandle handle) {
            this.handle = handle;
        }

        public NodeHandle handle() {
            return handle;
        }

        /** Smoothed round-trip time, or -1 if never measured. */
        public long rttNanos() {
            return rttNanos;
        }

        public long lastHeard() {
            return lastHeard;
        }
    }

    private final int capacity;
    private final Map<Id, Peer> peers;
    // Peers believed failed, kept apart because routing asks "is it dead?" for every candidate and
    // the answer is almost always no: a miss in this small map is cheap.
    private final Map<Id, Long> dead = new java.util.HashMap<>();
    // Peers that announced their own departure, until when: unlike a failure, hearing from one again
    // (a message that overtook its goodbye on another connection) does not bring it back; only
    // joining again does.
    private final Map<Id, Long> departed = new java.util.HashMap<>();
    // The highest recent RTT sample from any peer, decaying by half every RECENT_HALF_LIFE_NANOS.
    private long highRtt;
    private long highRttAt;

    /**
     * How long the least RTT sampled stands for a peer's distance before a new sample may replace it
     * even if larger (as BBR keeps its min_rtt): a route that really got longer shows within this.
     */
    static final long MIN_RTT_WINDOW_NANOS = 300_000_000_000L;
    /**
     * A peer's distance rests on at least this many samples, taken at least {@link #DISTANCE_SAMPLE_GAP_NANOS}
     * apart: one sample taken while the uplinks queued (a join storm) would otherwise stand for the
     * peer's distance as long as nothing else measures it.
     */
    public static final int DISTANCE_SAMPLES = 3;
    static final long DISTANCE_SAMPLE_GAP_NANOS = 30_000_000_000L;

    /** How fast {@link #recentHighRtt} forgets a slow sample. */
    static final long RECENT_HALF_LIFE_NANOS = 10_000_000_000L;

    public PeerTable(int capacity) {
        this.capacity = capacity;
        this.peers = new LinkedHashMap<>(256, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Id, Peer> eldest) {
                return size() > PeerTable.this.capacity;
            }
        };
    }

    private Peer peer(NodeHandle handle) {
        Peer p = peers.get(handle.id());
        if (p == null || !p.handle.address().equals(handle.address())) {
            Peer fresh = new Peer(handle);
            if (p != null) {
                fresh.rttNanos = -1; // a node back on another address is measured again
                fresh.minRttNanos = -1;
                fresh.samples = 0;
            }
            peers.put(handle.id(), fresh);
            return fresh;
        }
        return p;
    }

    /** Records that {@code handle} was heard from at {@code now}: it is alive. */
    public void heard(NodeHandle handle, long now) {
        Peer p = peer(handle);
        p.lastHeard = now;
        if (!dead.isEmpty() && !hasDeparted(handle.id(), now)) {
            dead.remove(handle.id());
        }
    }

    /** Folds a round-trip sample into the peer's estimate (EWMA, 1/4 weight to the new sample). */
    public void rttSample(NodeHandle handle, long sampleNanos, long now) {
        Peer p = peer(handle);
        p.rttNanos = p.rttNanos < 0 ? sampleNanos : (3 * p.rttNanos + sampleNanos) / 4;
        if (p.samples == 0 || now - p.lastSampleAt >= DISTANCE_SAMPLE_GAP_NANOS) {
            p.samples++; // samples close together count once: they share whatever queue there was
        }
        p.lastSampleAt = now;
        if (p.minRttNanos < 0 || sampleNanos <= p.minRttNanos || now - p.minRttAt > MIN_RTT_WINDOW_NANOS) {
            p.minRttNanos = sampleNanos;
            p.minRttAt = now;
        }
        p.lastHeard = now;
        if (sampleNanos >= recentHighRtt(now)) {
            highRtt = sampleNanos;
            highRttAt = now;
        }
        if (!dead.isEmpty() && !hasDeparted(handle.id(), now)) {
            dead.remove(handle.id());
        }
    }

    /**
     * The highest round trip sampled lately from any peer (a sample's weight halves every ten
     * seconds), or 0. A node's messages to other stubs share its uplink, so when that link queues,
     * every far peer's answers slow down at once: timeouts for peers not measured lately go by this.
     */
    public long recentHighRtt(long now) {
        if (highRtt == 0) {
            return 0;
        }
        double halves = (double) (now - highRttAt) / RECENT_HALF_LIFE_NANOS;
        return halves > 40 ? 0 : (long) (highRtt * Math.pow(0.5, halves));
    }

    /**
     * How far the peer with {@code id} is: the least RTT sampled lately, or -1. Samples taken while a
     * link queues are long by the queueing, and the smoothed RTT carries that for many samples; a
     * distance is the path's propagation, so proximity (routing-table neighbours, the local area,
     * object pointers, the nearest replica) goes by this, and timeouts by the smoothed RTT.
     */
    public long distance(Id id) {
        Peer p = peers.get(id);
        return p == null ? -1 : p.minRttNanos;
    }

    /** Whether the distance of the peer with {@code id} rests on too few samples and another is due now. */
    public boolean wantsDistanceSample(Id id, long now) {
        Peer p = peers.get(id);
        return p != null && p.samples > 0 && p.samples < DISTANCE_SAMPLES && now - p.lastSampleAt >= DISTANCE_SAMPLE_GAP_NANOS;
    }

    /** The smoothed RTT of the peer with {@code id}, or -1. */
    public long rtt(Id id) {
        Peer p = peers.get(id);
        return p == null ? -1 : p.rttNanos;
    }

    /** When the peer was last heard from, or {@link Long#MIN_VALUE}. */
    public long lastHeard(Id id) {
        Peer p = peers.get(id);
        return p == null ? Long.MIN_VALUE : p.lastHeard;
    }

    /** Believes the peer failed until {@code until}: it is not routed to nor re-learned second-hand before then. */
    public void markDead(NodeHandle handle, long until) {
        peer(handle);
        if (dead.size() >= capacity) {
            dead.values().removeIf(u -> u <= until - 1_000_000_000L * 3600);
        }
        dead.put(handle.id(), until);
    }

    /** {@code handle} said it is leaving: dead until {@code until}, whatever is heard from it, unless it {@link #rejoined}. */
    public void markDeparted(NodeHandle handle, long until) {
        markDead(handle, until);
        if (departed.size() >= capacity) {
            departed.values().removeIf(u -> u <= until - 1_000_000_000L * 3600);
        }
        departed.put(handle.id(), until);
    }

    /**
     * {@code id} is joining the overlay again: if it had said goodbye, forget that. (A failure's mark
     * is left alone: it clears when the node itself is heard from, as before goodbyes existed; a join
     * relayed on its behalf is no proof that it answers.)
     */
    public void rejoined(Id id) {
        if (departed.remove(id) != null) {
            dead.remove(id);
        }
    }

    /** Whether {@code id} said it was leaving, and has not joined again, as of {@code now}. */
    public boolean hasDeparted(Id id, long now) {
        if (departed.isEmpty()) {
            return false;
        }
        Long until = departed.get(id);
        if (until != null && until <= now) {
            departed.remove(id);
            return false;
        }
        return until != null;
    }

    /** Whether the peer is believed failed at {@code now}. */
    public boolean isDead(Id id, long now) {
        if (dead.isEmpty()) {
            return false;
        }
        Long until = dead.get(id);
        if (until == null) {
            return false;
        }
        if (until <= now) {
            dead.remove(id);
            return false;
        }
        return true;
    }

    /** Whether the peer's RTT is known. */
    public boolean isMeasured(Id id) {
        return rtt(id) >= 0;
    }

    public int size() {
        return peers.size();
    }
}
