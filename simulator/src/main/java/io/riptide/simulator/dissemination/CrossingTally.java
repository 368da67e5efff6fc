package io.riptide.simulator.dissemination;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.LinkModel;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.dissemination.TreeMessages;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.HopAck;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Counts, from the messages actually sent on the simulated network, the interdomain crossings spent
 * on each tracked object: its tree's own messages (attach, attached with the first copy, detach,
 * update, beat, seek, here), and the location messages carrying its GUID (publishes of each new
 * replica and their periodic refreshes, told apart, the locate and read that make its first copy,
 * their answers, pointer copies, and the hop-by-hop acknowledgements of any of these).
 *
 * <p>A crossing is one bandwidth-limited link of the {@link LinkModel} on the message's path. In the
 * transit-stub topology those are the stub uplinks, so a message between two stubs makes 2 crossings
 * (out over its sender's uplink, in over its receiver's) and one within a stub makes 0: the same unit
 * as {@link TreeCost}, where each inter-stub tree edge costs 2, so the per-update figure measured
 * here is directly comparable with the one computed from the tree's edges.
 *
 * <p>Counts are kept per phase ({@link #phase}), so building a tree and pushing an update are told
 * apart. Messages sent and then lost count: their crossings were spent on the way. Messages that
 * serve every object at once (Bloom filter adverts, pings, routing-table upkeep) cannot be charged to
 * one tree; they are tallied, all objects together, as {@link #unattributed}.
 */
public final class CrossingTally implements SimNetwork.SendObserver {
    /** Messages and the crossings they made. */
    public record Count(long messages, long crossings) {
        Count plus(long crossingsOfOne) {
            return new Count(messages + 1, crossings + crossingsOfOne);
        }
    }

    private record PendingAck(int sender, long hopId) {
    }

    private record Replica(Id guid, int vertex) {
    }

    private final LinkModel links;
    private final int[] pathBuffer;
    private final Set<Id> tracked = new LinkedHashSet<>();
    // guid -> phase -> message kind -> count; TreeMaps keep result.json's order stable.
    private final Map<Id, Map<String, Map<String, Count>>> counts = new HashMap<>();
    private final Map<String, Map<String, Count>> unattributed = new TreeMap<>();
    // A hop's acknowledgement carries only the hop's ID: it is charged to whatever the hop carried.
    private final Map<PendingAck, Map<Id, String>> hopsAwaitingAck = new HashMap<>();
    // When each replica's first publish of an object was seen: later ones are periodic refreshes.
    private final Map<Replica, Long> firstPublishAt = new HashMap<>();
    private final LongSupplier clock;
    private final long firstPublishNanos;
    private String phase = "setup";

    /**
     * @param clock        the simulation's virtual time, in nanoseconds
     * @param firstPublish how long after a replica's first publish message for an object its publish
     *                     messages (retries, pointer copies, acknowledgements) still belong to that
     *                     first publish; later ones are refreshes (half the republish interval is safe)
     */
    public CrossingTally(LinkModel links, LongSupplier clock, Duration firstPublish) {
        this.links = links;
        this.pathBuffer = new int[links.maxPathLength()];
        this.clock = clock;
        this.firstPublishNanos = firstPublish.toNanos();
    }

    /** Charges messages carrying {@code guid} to it from now on. */
    public void track(Id guid) {
        tracked.add(guid);
        counts.computeIfAbsent(guid, g -> new TreeMap<>());
    }

    /** Charges what is sent from now on to {@code name}. */
    public void phase(String name) {
        this.phase = name;
    }

    @Override
    public void sent(int fromVertex, int toVertex, WireMessage message) {
        long crossings = fromVertex == toVertex ? 0 : links.path(fromVertex, toVertex, pathBuffer);
        WireMessage inner = unwrap(message);
        String base = inner.getClass().getSimpleName();
        // Each object the message is charged to, with the kind it is charged as.
        Map<Id, String> owners = new LinkedHashMap<>();
        if (message instanceof HopAck ack) {
            Map<Id, String> hop = hopsAwaitingAck.remove(new PendingAck(toVertex, ack.hopId()));
            if (hop != null) {
                hop.forEach((guid, kind) -> owners.put(guid, base + "(" + kind + ")"));
            }
        } else {
            for (Id guid : guids(inner)) {
                if (tracked.contains(guid) && !owners.containsKey(guid)) {
                    owners.put(guid, kindOf(guid, inner, base, toVertex));
                }
            }
            if (message instanceof Hop hop && !owners.isEmpty()) {
                hopsAwaitingAck.put(new PendingAck(fromVertex, hop.hopId()), Map.copyOf(owners));
            }
        }
        if (owners.isEmpty()) {
            add(unattributed.computeIfAbsent(phase, p -> new TreeMap<>()), base, crossings);
        }
        owners.forEach((guid, kind) -> add(counts.get(guid).computeIfAbsent(phase, p -> new TreeMap<>()), kind, crossings));
    }

    /** {@code base}, marked {@code (republish)} for a publish message of a replica's periodic refresh. */
    private String kindOf(Id guid, WireMessage inner, String base, int toVertex) {
        int replica = -1;
        if (inner instanceof LocationMessages.Publish p) {
            replica = p.replica().address().port();
        } else if (inner instanceof LocationMessages.PublishAck) {
            replica = toVertex;
        } else if (inner instanceof LocationMessages.PointerCopy c) {
            for (LocationMessages.PointerRecord r : c.pointers()) {
                if (r.guid().equals(guid)) {
                    replica = r.replica().address().port();
                    break;
                }
            }
        }
        if (replica < 0) {
            return base;
        }
        long now = clock.getAsLong();
        Long first = firstPublishAt.putIfAbsent(new Replica(guid, replica), now);
        return first != null && now - first > firstPublishNanos ? base + "(republish)" : base;
    }

    private static void add(Map<String, Count> byKind, String kind, long crossings) {
        byKind.merge(kind, new Count(1, crossings), (a, b) -> a.plus(crossings));
    }

    /** What {@code guid}'s messages in {@code phase} made, by message kind (the innermost message's class). */
    public Map<String, Count> byKind(Id guid, String phase) {
        Map<String, Map<String, Count>> phases = counts.get(guid);
        Map<String, Count> m = phases == null ? null : phases.get(phase);
        return m == null ? Map.of() : Map.copyOf(m);
    }

    /**
     * What a message of {@code kind} is for: {@code copy} (locating and reading a replica's first
     * copy), {@code arrange} (attaching, its answer, detaching, seeking a nearer parent), {@code publish}
     * (a replica's first publish, which makes it findable, with its pointer copies and acknowledgement),
     * {@code republish} (the periodic refreshes of those, kinds ending {@code (republish)}),
     * {@code beat} (a parent's periodic liveness signal, charged to each tree it lists), {@code update}, or {@code other}. A hop's
     * acknowledgement, {@code HopAck(kind)}, is for what the hop carried.
     */
    public static String category(String kind) {
        String k = kind.startsWith("HopAck(") && kind.endsWith(")") ? kind.substring(7, kind.length() - 1) : kind;
        if (k.endsWith("(republish)")) {
            return "republish";
        }
        return switch (k) {
            case "Locate", "ObjectDelivery", "Found", "LocateFailed", "ReplicaRead" -> "copy";
            case "Attach", "Attached", "Detach", "Seek", "Here" -> "arrange";
            case "Publish", "PublishAck", "PointerCopy" -> "publish";
            case "Beats" -> "beat";
            case "Update" -> "update";
            default -> "other";
        };
    }

    /** What {@code guid}'s messages in {@code phase} made, by {@link #category}. */
    public Map<String, Count> byCategory(Id guid, String phase) {
        Map<String, Count> out = new TreeMap<>();
        for (Map.Entry<String, Count> e : byKind(guid, phase).entrySet()) {
            Count c = e.getValue();
            out.merge(category(e.getKey()), c, (a, b) -> new Count(a.messages() + b.messages(), a.crossings() + b.crossings()));
        }
        return out;
    }

    /** {@code guid}'s messages in {@code phase}, all kinds together. */
    public Count total(Id guid, String phase) {
        return sum(byKind(guid, phase), null);
    }

    /** {@code guid}'s messages in {@code phase} of the {@link #category categories} in {@code categories}. */
    public Count totalIn(Id guid, String phase, Set<String> categories) {
        return sum(byCategory(guid, phase), categories);
    }

    /** Messages in {@code phase} charged to no tracked object (overlay upkeep, other objects), by kind. */
    public Map<String, Count> unattributed(String phase) {
        Map<String, Count> m = unattributed.get(phase);
        return m == null ? Map.of() : Map.copyOf(m);
    }

    private static Count sum(Map<String, Count> counts, Set<String> only) {
        long messages = 0;
        long crossings = 0;
        for (Map.Entry<String, Count> e : counts.entrySet()) {
            if (only == null || only.contains(e.getKey())) {
                messages += e.getValue().messages();
                crossings += e.getValue().crossings();
            }
        }
        return new Count(messages, crossings);
    }

    /** The message a hop or a routed envelope carries, innermost first. */
    static WireMessage unwrap(WireMessage message) {
        WireMessage m = message;
        while (true) {
            if (m instanceof Hop h) {
                m = h.inner();
            } else if (m instanceof Routed r) {
                m = r.payload();
            } else {
                return m;
            }
        }
    }

    /** The objects a (unwrapped) message is about; empty for messages about none in particular. */
    static List<Id> guids(WireMessage m) {
        if (m instanceof TreeMessages.Attach a) {
            return List.of(a.guid());
        } else if (m instanceof TreeMessages.Attached a) {
            return List.of(a.guid());
        } else if (m instanceof TreeMessages.Detach d) {
            return List.of(d.guid());
        } else if (m instanceof TreeMessages.Update u) {
            return List.of(u.guid());
        } else if (m instanceof TreeMessages.Beats b) {
            return b.lines().stream().map(TreeMessages.TreeBeat::guid).toList();
        } else if (m instanceof TreeMessages.Seek s) {
            return List.of(s.guid());
        } else if (m instanceof TreeMessages.Here h) {
            return List.of(h.guid());
        } else if (m instanceof LocationMessages.Publish p) {
            return List.of(p.guid());
        } else if (m instanceof LocationMessages.PublishAck p) {
            return List.of(p.guid());
        } else if (m instanceof LocationMessages.Locate l) {
            return List.of(l.guid());
        } else if (m instanceof LocationMessages.ObjectDelivery d) {
            return List.of(d.request().guid());
        } else if (m instanceof LocationMessages.Found f) {
            return List.of(f.guid());
        } else if (m instanceof LocationMessages.LocateFailed f) {
            return List.of(f.guid());
        } else if (m instanceof LocationMessages.ReplicaRead r) {
            return List.of(r.guid());
        } else if (m instanceof LocationMessages.PointerCopy c) {
            List<Id> out = new ArrayList<>();
            for (LocationMessages.PointerRecord p : c.pointers()) {
                out.add(p.guid());
            }
            return out;
        }
        return List.of();
    }
}
