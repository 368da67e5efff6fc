package io.riptide.cachemanager.replicas;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import io.riptide.cachemanager.hot.LoadSources;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.placement.Replication;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What this manager's proxies missed, copied to its own node once a gateway holds it
 * ({@link CacheManagerConfig#copyInserts}). Without it the only copy is the gateway's, in the
 * gateway's stub, and every later request of this stub crosses two uplinks to reach it: in a crowd,
 * one uplink carries every stub's reads at once (origin-shield's second wave, with the paper's
 * 1.5 Mb/s links). With it, the stub that asked serves itself, as a CDN's edge fills on a miss.
 * Only objects missed through at least {@link #MIN_SOURCES} access nodes are copied: with a replay of
 * a real trace, where most URLs are asked for by one user, copying everything doubled the traffic on
 * the gateway's uplink for nothing. An answer for an object this node holds already, or is copying,
 * costs nothing.
 *
 * <p>Proxies in a campus without a manager of its own hint the nearest one elsewhere; their misses
 * are filled where they came from: sources outside this node's local area
 * ({@link OverlayNode#localReachNanos}) are asked one at a time, heaviest first, to copy it unless a
 * node already holding it is in their own local area, so each remote area gets one copy; at most
 * {@code maxHotReplicas} are made. Those copies are left to their holders' replacement, as any
 * replica is; the manager's hot-object replication no longer retires one it had made there.
 */
public final class InsertedCopies {
    /** Most copies in flight at once. */
    static final int MAX_WINDOW = 16;
    /** Most copies waiting for the window; more are dropped (the gateway's copy still serves). */
    static final int MAX_WAITING = 1024;

    /** Tries at one copy: the first, and two more a locate deadline, then two, later. */
    static final int ATTEMPTS = 3;

    /**
     * Copies are made for objects that at least this many access nodes missed: what one proxy alone
     * asked for, its own tiers keep, and a copy would only add its bytes to busy uplinks.
     */
    static final int MIN_SOURCES = 2;

    private final OverlayNode node;
    private final boolean enabled;
    private final BiConsumer<Id, NodeHandle> serving;
    private final int maxRemote;
    // Where each object's misses came from, kept as long as its insert may take (retried once) and its copy after.
    private final LoadSources sources;
    private final Set<Id> copying = new HashSet<>();
    private long made;
    private long failures;
    private long remoteMade;
    private long skippedFull;
    private long skippedBusy;
    private long heldNearby;
    // Copies at once (AIMD, as TCP's congestion window): how many may be in flight, and how many are.
    private double window = MAX_WINDOW / 4.0;
    private int inFlight;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();

    /**
     * {@code serving} hears of each remote copy this manager now counts on to serve an area's misses,
     * whether it made the copy or found one there: no other part of the manager may retire it.
     */
    public InsertedCopies(OverlayNode node, CacheManagerConfig config, BiConsumer<Id, NodeHandle> serving) {
        this.node = node;
        this.serving = serving;
        this.enabled = config.copyInserts();
        this.maxRemote = config.maxHotReplicas();
        this.sources = new LoadSources(config.requestDeadline().multipliedBy(3), config.maxTracked());
    }

    /** A proxy behind {@code source} missed {@code guid} (a miss, or a sighting of its own fetch). */
    public void onMiss(Id guid, NodeHandle source) {
        if (enabled) {
            sources.record(guid, source, 1, node.env().nowNanos());
        }
    }

    /** A gateway's answer to one of this manager's insert requests. */
    public void onAnswer(InsertReply reply) {
        boolean held = reply.outcome() == Outcome.INSERTED || reply.outcome() == Outcome.UNCHANGED;
        Id guid = reply.guid();
        if (!enabled || !held || guid.equals(Id.ZERO)
                || sources.heaviestFirst(guid, node.env().nowNanos()).size() < MIN_SOURCES || !copying.add(guid)) {
            return;
        }
        if (node.replicas().contains(guid)) {
            copying.remove(guid);
            fillRemoteSources(guid);
            return;
        }
        if (!hasRoom()) {
            // A copy made on speculation must not displace a replica that serves: with a full store, the
            // gateway's copy serves the stub, and slow hits or load make a copy here if it pays.
            copying.remove(guid);
            skippedFull++;
            return;
        }
        copy(guid, 1);
    }

    /** Whether this node's store has room to spare (under nine tenths of its bounds). */
    private boolean hasRoom() {
        return node.replicas().payloadBytes() < 0.9 * node.config().maxReplicaBytes()
                && node.replicas().objects() < 0.9 * node.config().maxReplicas();
    }

    /**
     * Runs {@code transfer} now if the window allows another copy in flight, else queues it (up to
     * {@link #MAX_WAITING}; beyond that it is dropped and counted). Copies are speculative: on congested
     * paths they go one at a time instead of adding to the queues.
     */
    private void admit(Runnable transfer, Runnable dropped) {
        if (inFlight < (int) window) {
            inFlight++;
            transfer.run();
        } else if (waiting.size() < MAX_WAITING) {
            waiting.add(transfer);
        } else {
            skippedBusy++;
            dropped.run();
        }
    }

    private void copy(Id guid, int attempt) {
        admit(() -> makeCopy(guid, attempt), () -> copying.remove(guid));
    }

    private void makeCopy(Id guid, int attempt) {
        LocalCopy.make(node, guid, (stored, elapsed) -> {
            adjustWindow(stored, elapsed);
            if (stored) {
                copying.remove(guid);
                made++;
                fillRemoteSources(guid);
            } else if (attempt < ATTEMPTS) {
                // Most often the gateway's publish had not reached the root yet when its answer came, or the
                // read was lost in a crowd: the copy is worth a later try.
                node.env().schedule(node.config().locateDeadline().multipliedBy(attempt), () -> copy(guid, attempt + 1));
            } else {
                copying.remove(guid);
                failures++;
            }
        });
    }

    /**
     * A copy ended. Additive increase, multiplicative decrease, as TCP's congestion window: a copy that
     * failed, or took longer than a third of a locate deadline (it queued behind busy links), halves the
     * copies allowed in flight; one that went quickly allows one more.
     */
    private void adjustWindow(boolean ok, long elapsedNanos) {
        inFlight--;
        if (ok && elapsedNanos <= node.config().locateDeadline().toNanos() / 3) {
            window = Math.min(MAX_WINDOW, window + 1);
        } else {
            window = Math.max(1, window / 2);
        }
        while (inFlight < (int) window && !waiting.isEmpty()) {
            inFlight++;
            waiting.poll().run();
        }
    }

    private void fillRemoteSources(Id guid) {
        long local = node.localReachNanos();
        List<NodeHandle> from = sources.heaviestFirst(guid, node.env().nowNanos()).stream().map(LoadSources.Source::node)
                .filter(n -> !n.id().equals(node.self().id())).toList();
        List<NodeHandle> holders = new ArrayList<>(List.of(node.self()));
        fill(guid, from, 0, maxRemote, local, holders);
    }

    /**
     * One source at a time, each told which nodes hold a copy: a source with one of them in its local
     * area is served by it, and declines. Only the copies made count toward the bound, so the copies
     * go one per remote area, heaviest source first, and do not all land in the first area's stub.
     */
    private void fill(Id guid, List<NodeHandle> from, int index, int left, long local, List<NodeHandle> holders) {
        if (index >= from.size() || left == 0) {
            return;
        }
        NodeHandle source = from.get(index);
        node.measure(source, rtt -> {
            if (rtt <= local) {
                fill(guid, from, index + 1, left, local, holders); // a local source: served by this node's copy
                return;
            }
            admit(() -> {
                long started = node.env().nowNanos();
                node.replicateTo(source, guid, List.copyOf(holders), r -> {
                    boolean nearby = Replication.HELD_NEARBY.equals(r.reason());
                    adjustWindow(r.ok() || nearby, node.env().nowNanos() - started);
                    if (nearby) {
                        heldNearby++;
                        fill(guid, from, index + 1, left, local, holders);
                        return;
                    }
                    if (r.ok()) {
                        holders.add(source);
                        serving.accept(guid, source);
                        if (!"already held".equals(r.reason())) {
                            remoteMade++;
                        }
                    }
                    fill(guid, from, index + 1, left - 1, local, holders);
                });
            }, () -> { });
        });
    }

    /** Copies made on the remote sources of inserted objects' misses (outside this node's local area). */
    public long remoteMade() {
        return remoteMade;
    }

    /** Inserted objects not copied because this node's store was (nearly) full. */
    public long skippedFull() {
        return skippedFull;
    }

    /** Remote sources that declined a copy because one the manager had placed was in their local area. */
    public long heldNearby() {
        return heldNearby;
    }

    /** Copies dropped because too many waited for the window (the links stayed busy). */
    public long skippedBusy() {
        return skippedBusy;
    }

    /** Inserted objects copied to this node. */
    public long made() {
        return made;
    }

    /** Copies that failed after every attempt (no replica answered in time, or no room). */
    public long failures() {
        return failures;
    }
}
