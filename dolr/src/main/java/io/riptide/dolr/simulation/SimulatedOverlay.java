package io.riptide.dolr.simulation;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.sim.LatencyModel;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

/**
 * A whole overlay of real {@link OverlayNode}s in one simulation: builds it by joins through nearby
 * nodes, kills nodes and starts them again ({@link #restart}, on their {@link SimulatedDisk} if they
 * keep one), and knows the ground truth (which node really is a key's root) so tests and
 * experiments can check what the nodes decide.
 */
public final class SimulatedOverlay {
    private final Simulation sim;
    private final SimNetwork network;
    private final DolrConfig config;
    private final IntUnaryOperator groupOf;
    private final IntFunction<OverlayApplication> apps;
    private final SplittableRandom random;
    private final Map<Integer, OverlayNode> nodes = new HashMap<>();
    private final NavigableMap<Id, Integer> live = new TreeMap<>();
    private final Map<Integer, List<Integer>> joinedByGroup = new HashMap<>();
    private final List<Integer> joined = new ArrayList<>();
    // What a restart needs: each vertex's node ID, its agent, and its disk (if nodes keep one).
    private final Map<Integer, Id> ids = new HashMap<>();
    private final Map<Integer, Function<OverlayNode, OverlayApplication>> agentOf = new HashMap<>();
    private final Map<Integer, SimulatedDisk> disks = new HashMap<>();
    private boolean onDisks;
    private Interceptor interceptor = (vertex, env, node) -> node;

    /**
     * What stands between the network and a node's own message handling: hostile behaviour for
     * experiments with untrusted peers. The node still runs the shipped code; the interceptor
     * decides what reaches it and may send on the node's behalf through {@code env}.
     */
    @FunctionalInterface
    public interface Interceptor {
        io.riptide.core.runtime.MessageHandler wrap(int vertex, io.riptide.core.runtime.Env env, OverlayNode node);
    }

    /** Nodes started from now on get their messages through {@code interceptor} (by default, directly). */
    public void interceptWith(Interceptor interceptor) {
        this.interceptor = interceptor;
    }

    /**
     * @param groupOf each vertex's local group (its stub): a joining node bootstraps through a node of
     *                its own group when there is one, as a node on a campus network would
     * @param apps    the application each vertex runs
     */
    public SimulatedOverlay(Simulation sim, LatencyModel latency, DolrConfig config, IntUnaryOperator groupOf,
                            IntFunction<OverlayApplication> apps) {
        this.sim = sim;
        this.network = new SimNetwork(sim, latency);
        this.config = config;
        this.groupOf = groupOf;
        this.apps = apps;
        this.random = sim.newRandom();
    }

    /** A plain overlay: no applications. */
    public SimulatedOverlay(Simulation sim, LatencyModel latency, DolrConfig config, IntUnaryOperator groupOf) {
        this(sim, latency, config, groupOf, v -> OverlayApplication.NONE);
    }

    public Simulation simulation() {
        return sim;
    }

    public SimNetwork network() {
        return network;
    }

    /** Round-trips every message through the wire codec (slower; proves the codec at scale). */
    public void checkWireFormat() {
        network.checkWireFormat(DolrCodec.create());
    }

    /** Starts a node at {@code vertex} with a random ID and has it join now (or found the overlay, if first). */
    public OverlayNode add(int vertex) {
        return add(vertex, node -> apps.apply(vertex));
    }

    /**
     * From now on, nodes added keep their replicas on a {@link SimulatedDisk} (of the configuration's
     * bounds) that outlives them, so a {@link #restart} brings the replicas back. Without this a node
     * keeps them in memory, and a restarted node starts empty.
     */
    public void keepReplicasOnDisks() {
        this.onDisks = true;
    }

    /** Starts a node at {@code vertex} running the agent {@code app} makes for it, and has it join now. */
    public OverlayNode add(int vertex, Function<OverlayNode, OverlayApplication> app) {
        byte[] idBytes = new byte[Id.BYTES];
        random.nextBytes(idBytes);
        return add(vertex, Id.fromBytes(idBytes), app);
    }

    /**
     * Starts a node with the chosen {@code id} at {@code vertex}, and has it join now: keys are free,
     * so an attacker can make IDs near a victim's (see the source limits of the routing state).
     */
    public OverlayNode add(int vertex, Id id, Function<OverlayNode, OverlayApplication> app) {
        ids.put(vertex, id);
        agentOf.put(vertex, app);
        if (onDisks) {
            disks.put(vertex, new SimulatedDisk(config.maxReplicaBytes(), config.maxReplicas()));
        }
        OverlayNode node = start(vertex, id, app);
        joined.add(vertex);
        joinedByGroup.computeIfAbsent(groupOf.applyAsInt(vertex), g -> new ArrayList<>()).add(vertex);
        return node;
    }

    private OverlayNode start(int vertex, Id id, Function<OverlayNode, OverlayApplication> app) {
        OverlayNode[] holder = new OverlayNode[1];
        SimulatedDisk disk = disks.get(vertex);
        network.start(id, vertex, env -> {
            holder[0] = disk == null ? new OverlayNode(env, config, app) : new OverlayNode(env, config, disk, app);
            return interceptor.wrap(vertex, env, holder[0]);
        });
        OverlayNode node = holder[0];
        nodes.put(vertex, node);
        live.put(id, vertex);
        if (joined.isEmpty()) {
            node.startAlone();
        } else {
            node.join(NodeAddress.simulated(bootstrapFor(vertex)));
        }
        return node;
    }

    /**
     * Starts the crashed node at {@code vertex} again, as its machine rebooting would: the same ID,
     * a new agent from the same factory, its disk's replicas (if it keeps them on one,
     * {@link #keepReplicasOnDisks}), and nothing else it knew; it joins through a node of its own group.
     */
    public OverlayNode restart(int vertex) {
        Id id = ids.get(vertex);
        if (id == null) {
            throw new IllegalArgumentException("no node was ever started at vertex " + vertex);
        }
        if (network.isAlive(vertex)) {
            throw new IllegalStateException("the node at vertex " + vertex + " is running");
        }
        return start(vertex, id, agentOf.get(vertex));
    }

    /** The disk of the node at {@code vertex}, or null if it keeps its replicas in memory. */
    public SimulatedDisk disk(int vertex) {
        return disks.get(vertex);
    }

    private int bootstrapFor(int vertex) {
        List<Integer> local = joinedByGroup.get(groupOf.applyAsInt(vertex));
        List<Integer> pool = local != null && !local.isEmpty() ? local : joined;
        for (List<Integer> p : List.of(pool, joined)) {
            for (int tries = 0; tries < 32; tries++) {
                int candidate = p.get(random.nextInt(p.size()));
                if (network.isAlive(candidate) && nodes.get(candidate).isJoined()) {
                    return candidate;
                }
            }
        }
        return joined.get(0);
    }

    /**
     * Adds a node for each vertex, {@code spacing} apart in virtual time, then runs until all have
     * joined or {@code limit} passes. Returns how many joined.
     */
    public int addAll(List<Integer> vertices, Duration spacing, Duration limit, Runnable onEach) {
        return addAll(vertices, Map.of(), spacing, limit, onEach);
    }

    /** As above, the vertices in {@code agents} running the agent each names instead of their default application. */
    public int addAll(List<Integer> vertices, Map<Integer, Function<OverlayNode, OverlayApplication>> agents, Duration spacing,
                      Duration limit, Runnable onEach) {
        for (int v : vertices) {
            Function<OverlayNode, OverlayApplication> agent = agents.get(v);
            if (agent == null) {
                add(v);
            } else {
                add(v, agent);
            }
            sim.runFor(spacing.toNanos());
            onEach.run();
        }
        long end = sim.now() + limit.toNanos();
        while (sim.now() < end && countJoined() < vertices.size()) {
            sim.runFor(Duration.ofMillis(500).toNanos());
        }
        return countJoined();
    }

    private int countJoined() {
        int n = 0;
        for (OverlayNode node : nodes.values()) {
            if (node.isJoined()) {
                n++;
            }
        }
        return n;
    }

    /** Crashes the node at {@code vertex}. */
    public void kill(int vertex) {
        OverlayNode node = nodes.get(vertex);
        if (node != null && network.isAlive(vertex)) {
            network.kill(vertex);
            live.remove(node.self().id());
        }
    }

    public boolean isAlive(int vertex) {
        return network.isAlive(vertex);
    }

    /** The node at {@code vertex}, live or not. */
    public OverlayNode node(int vertex) {
        return nodes.get(vertex);
    }

    /** The vertices of live nodes, in ID order. */
    public List<Integer> liveVertices() {
        return new ArrayList<>(live.values());
    }

    /** The vertex of the live node whose ID is numerically closest to {@code key}: the true root. */
    public int trueRoot(Id key) {
        Map.Entry<Id, Integer> up = live.ceilingEntry(key);
        if (up == null) {
            up = live.firstEntry();
        }
        Map.Entry<Id, Integer> down = live.floorEntry(key);
        if (down == null) {
            down = live.lastEntry();
        }
        return up.getKey().closerTo(key, down.getKey()) ? up.getValue() : down.getValue();
    }

    /** The vertex of the live node with ID {@code id}, or -1. */
    public int vertexOf(Id id) {
        Integer v = live.get(id);
        return v == null ? -1 : v;
    }

    /** The IDs of the {@code half} live nodes on each side of {@code id}: the leaf set it should have. */
    public List<Id> trueLeafSet(Id id, int half) {
        List<Id> out = new ArrayList<>();
        Id cursor = id;
        for (int i = 0; i < half && i < live.size() - 1; i++) {
            Id next = live.higherKey(cursor);
            cursor = next == null ? live.firstKey() : next;
            if (cursor.equals(id)) {
                break;
            }
            out.add(cursor);
        }
        cursor = id;
        for (int i = 0; i < half && i < live.size() - 1; i++) {
            Id prev = live.lowerKey(cursor);
            cursor = prev == null ? live.lastKey() : prev;
            if (cursor.equals(id)) {
                break;
            }
            if (!out.contains(cursor)) {
                out.add(cursor);
            }
        }
        return out;
    }

    public int size() {
        return live.size();
    }
}
