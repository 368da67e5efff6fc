package io.riptide.dolr.routing;

import static io.riptide.dolr.routing.RoutingTableTest.id;
import static io.riptide.dolr.routing.RoutingTableTest.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Next-hop choice: the leaf set's range, the routing table, the rare case, and whole-network routing. */
class RouterTest {
    private static final int HALF = 4;
    private static final Predicate<Id> NONE = id -> false;
    private static final BigInteger RING = BigInteger.ONE.shiftLeft(Id.BITS);

    private final NodeHandle self = node("80", 0x80);
    private final RoutingTable table = new RoutingTable(self.id(), 3);
    private final LeafSet leaves = new LeafSet(self.id(), HALF);
    private final Router router = new Router(self, table, leaves);

    private void fullLeafSet() {
        for (String p : List.of("81", "82", "83", "84", "7f", "7e", "7d", "7c")) {
            leaves.add(node(p, Integer.parseInt(p, 16)));
        }
    }

    private static Predicate<Id> excluding(String... prefixes) {
        Set<Id> ids = new HashSet<>();
        for (String p : prefixes) {
            ids.add(id(p));
        }
        return ids::contains;
    }

    @Test
    void withinTheLeafSetRangeTheNumericallyClosestMemberIsNext() {
        fullLeafSet();

        assertEquals(node("82", 0x82), router.nextHop(id("827"), NONE));
        assertEquals(node("7c", 0x7c), router.nextHop(id("7c1"), NONE));
        assertEquals(node("83", 0x83), router.nextHop(id("827"), excluding("82")), "next closest when excluded");
        assertEquals(node("82", 0x82), router.nextHop(id("828"), NONE), "a tie goes to the smaller ID");
        assertEquals(node("83", 0x83), router.nextHop(id("828").plus(Id.fromWords(0, 0, 1)), NONE));
    }

    @Test
    void whenThisNodeIsNumericallyClosestThereIsNoNextHop() {
        fullLeafSet();

        assertNull(router.nextHop(id("807"), NONE));
        assertNull(router.nextHop(self.id(), NONE));
        assertTrue(router.isRoot(id("7f9"), NONE));
        assertFalse(router.isRoot(id("7f7"), NONE));
        assertNull(router.nextHop(id("7f7"), excluding("7f")), "the closer member excluded: this node is the root");
    }

    @Test
    void outsideTheLeafSetTheSlotsNearestCandidateIsNextSkippingExcluded() {
        fullLeafSet();
        NodeHandle near = node("3a", 1);
        NodeHandle backup = node("3b", 2);
        table.offer(backup, 20);
        table.offer(near, 10);
        table.offer(node("30", 3), 30);

        assertEquals(near, router.nextHop(id("3f"), NONE), "by RTT, not by closeness to the key");
        assertEquals(backup, router.nextHop(id("3f"), excluding("3a")));
        assertEquals(node("30", 3), router.nextHop(id("3f"), excluding("3a", "3b")));
    }

    @Test
    void routeSelectionTakesTheNearCandidateClosestToTheKeyAndNearestKeepsThePrimary() {
        fullLeafSet();
        NodeHandle nearest = node("3a", 1);
        NodeHandle nearEnough = node("3e", 2);
        table.offer(nearest, 10);
        table.offer(nearEnough, 20);
        table.offer(node("3f", 3), 21);
        HopChoice select = HopChoice.NEAR_CLOSEST_TO_KEY;

        // At 3e the key 3f0… may well be home (its root), which saves the last hop.
        assertEquals(nearEnough, router.nextHop(id("3f0"), NONE, select), "within twice the nearest's RTT, the closer to the key");
        assertEquals(nearest, router.nextHop(id("3b0"), NONE, select), "the nearest when it is also the closest to the key");
        assertEquals(nearest, router.nextHop(id("3f0"), excluding("3e"), select), "3f is 2.1 times as far as the nearest: not near enough");
        assertEquals(node("3f", 3), router.nextHop(id("3f0"), excluding("3a"), select), "an excluded nearest does not set the bar: 3f is near enough beside 3e");
        assertEquals(nearest, router.nextHop(id("3f0"), NONE), "location's rule: the primary, whatever the key");
        assertEquals(nearest, router.nextHop(id("3f0"), NONE, HopChoice.NEAREST));
    }

    @Test
    void theRareCaseTakesAKnownNodeSharingAsLongAPrefixAndNumericallyCloser() {
        fullLeafSet();
        // The key 8f5… shares one digit with 80; slot (1, f) is empty.
        table.offer(node("8a", 1), 10);
        table.offer(node("8c", 2), 50);
        table.offer(node("90", 3), 10); // numerically closest, but shares no digit with the key
        Id key = id("8f5");

        assertEquals(node("8c", 2), router.nextHop(key, NONE));
        assertEquals(node("8a", 1), router.nextHop(key, excluding("8c")));
        assertEquals(node("84", 0x84), router.nextHop(key, excluding("8c", "8a")), "a leaf-set member qualifies too");
        assertNull(router.nextHop(key, excluding("8c", "8a", "84", "83", "82", "81")),
                "nothing left both sharing the prefix and closer than this node");
    }

    /**
     * A 64-node universe where every node's leaf set and table are as complete as they can be: from
     * every node, greedy routing reaches the key's true root in at most log16(N) + 2 hops, and no step
     * ever picks an excluded node.
     */
    @Test
    void inACorrectlyBuiltNetworkEveryRouteReachesTheTrueRootQuickly() {
        SplittableRandom random = new SplittableRandom(64);
        int n = 64;
        List<NodeHandle> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            nodes.add(new NodeHandle(Id.fromWords(random.nextLong(), random.nextLong(), random.nextInt()), NodeAddress.simulated(i)));
        }
        Map<Id, Router> routers = new HashMap<>();
        for (NodeHandle me : nodes) {
            RoutingTable t = new RoutingTable(me.id(), 3);
            LeafSet l = new LeafSet(me.id(), HALF);
            for (NodeHandle other : nodes) {
                t.offer(other, 1 + random.nextInt(1000));
                l.add(other);
            }
            routers.put(me.id(), new Router(me, t, l));
        }
        double maxHops = Math.log(n) / Math.log(16) + 2;
        int routes = 0;
        int longest = 0;
        for (int k = 0; k < 200; k++) {
            Id key = Id.fromWords(random.nextLong(), random.nextLong(), random.nextInt());
            NodeHandle root = trueRoot(nodes, key);
            for (NodeHandle start : nodes) {
                for (HopChoice choice : HopChoice.values()) {
                    NodeHandle at = start;
                    int hops = 0;
                    for (NodeHandle next; (next = routers.get(at.id()).nextHop(key, NONE, choice)) != null; ) {
                        at = next;
                        hops++;
                        assertTrue(hops <= maxHops, () -> "too many hops from " + start + " to " + key + " by " + choice);
                    }
                    assertEquals(root, at, "root of " + key + " from " + start + " by " + choice);
                    longest = Math.max(longest, hops);
                    routes++;
                }
            }
        }
        assertEquals(200 * n * HopChoice.values().length, routes);
        assertTrue(longest >= 2, "some routes needed more than the last hop: " + longest);

        for (int k = 0; k < 2000; k++) {
            Id key = Id.fromWords(random.nextLong(), random.nextLong(), random.nextInt());
            Set<Id> excluded = new HashSet<>();
            for (NodeHandle h : nodes) {
                if (random.nextInt(3) == 0) {
                    excluded.add(h.id());
                }
            }
            NodeHandle from = nodes.get(random.nextInt(n));
            NodeHandle next = routers.get(from.id()).nextHop(key, excluded::contains);
            if (next != null) {
                assertFalse(excluded.contains(next.id()), () -> "routed to excluded " + next);
            }
        }
    }

    /** The node numerically closest to {@code key} round the ring, ties to the smaller ID, by BigInteger. */
    private static NodeHandle trueRoot(List<NodeHandle> nodes, Id key) {
        NodeHandle best = null;
        BigInteger bestDistance = null;
        BigInteger k = new BigInteger(1, key.toBytes());
        for (NodeHandle h : nodes) {
            BigInteger v = new BigInteger(1, h.id().toBytes());
            BigInteger d = v.subtract(k).mod(RING).min(k.subtract(v).mod(RING));
            int c = bestDistance == null ? -1 : d.compareTo(bestDistance);
            if (c < 0 || c == 0 && h.id().compareTo(best.id()) < 0) {
                best = h;
                bestDistance = d;
            }
        }
        assertNotNull(best);
        return best;
    }
}
