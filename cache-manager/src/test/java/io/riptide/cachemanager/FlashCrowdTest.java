package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A flash crowd for one object makes the manager add replicas where the load comes from, each of
 * which serves at once; they retire when the crowd cools.
 */
class FlashCrowdTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;

    @Test
    void replicasGrowWithTheCrowdAndRetireAfterIt() {
        // 5 requests/s per replica, at most 4 extra replicas.
        Stub stub = new Stub(7, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withHotObjects(5.0, 4), MANAGER);
        Id guid = Id.hash("flash crowd object");
        stub.node(3).storeReplica(guid, new byte[] {7});
        stub.run(Duration.ofSeconds(5));
        CacheManager manager = stub.manager(MANAGER);

        // 20 s of 40 fast hits per second from the manager's stub: no slow hit, only load.
        for (int tick = 0; tick < 400; tick++) {
            int client = GROUPS * (1 + tick % 5);
            stub.hint(client, new LatencyHint("http://example.com/hot", guid, 1, 2_000));
            stub.run(Duration.ofMillis(50));
        }
        List<NodeHandle> during = manager.hotObjects().extraReplicas(guid);
        assertEquals(4, during.size(), "40/s over 5/s per replica wants 8; capped at 4 extras");
        for (NodeHandle h : during) {
            int v = stub.overlay.vertexOf(h.id());
            assertEquals(0, stub.latency.groupOf(v), "extra replicas stay in the manager's stub");
            assertTrue(stub.node(v).replicas().contains(guid));
        }
        assertEquals(0, manager.slowHits().replicasMade());

        // The crowd is gone: the window empties and every extra retires.
        stub.run(Duration.ofSeconds(20));
        assertEquals(List.of(), manager.hotObjects().extraReplicas(guid));
        assertEquals(4, manager.hotObjects().retired());
        for (NodeHandle h : during) {
            assertTrue(!stub.node(stub.overlay.vertexOf(h.id())).replicas().contains(guid), "retired at " + h);
        }
        assertTrue(stub.node(3).replicas().contains(guid), "the original copy stays");
    }

    @Test
    void aModerateRateAddsOnlyWhatTheBoundNeeds() {
        Stub stub = new Stub(8, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withHotObjects(5.0, 8), MANAGER);
        Id guid = Id.hash("warm object");
        stub.node(3).storeReplica(guid, new byte[] {7});
        stub.run(Duration.ofSeconds(5));
        // Three proxies' access nodes report 12 requests a second between them: three replicas carry it.
        for (int s = 0; s < 15; s++) {
            for (int client : new int[] {6, 12, 18}) {
                stub.hint(client, new LoadReport(guid, 4));
            }
            stub.run(Duration.ofSeconds(1));
        }
        assertEquals(2, stub.manager(MANAGER).hotObjects().extraReplicas(guid).size());
    }

    @Test
    void oneSourceGetsOneReplicaHoweverHeavy() {
        Stub stub = new Stub(8, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withHotObjects(5.0, 8), MANAGER);
        Id guid = Id.hash("one source");
        stub.node(3).storeReplica(guid, new byte[] {7});
        stub.run(Duration.ofSeconds(5));
        // 50/s would want 9 replicas, but all of it comes from one access node: reads there go to one nearest replica.
        for (int s = 0; s < 15; s++) {
            stub.hint(6, new LoadReport(guid, 50));
            stub.run(Duration.ofSeconds(1));
        }
        List<NodeHandle> extras = stub.manager(MANAGER).hotObjects().extraReplicas(guid);
        assertEquals(1, extras.size());
        assertEquals(6, stub.overlay.vertexOf(extras.get(0).id()), "the replica sits where the load comes from");
    }

    @Test
    void everyNewReplicaServesInItsFirstInterval() {
        // A stub of 30 nodes (group 0 of 120), the original copy in another stub, and a crowd of 60 reads/s
        // from 3 access nodes of the stub that report their load each second, as proxies do.
        int nodes = 120;
        int groups = 4;
        Stub stub = new Stub(11, nodes, groups, GATEWAY, CacheManagerConfig.defaults().withHotObjects(5.0, 8), MANAGER);
        Id guid = Id.hash("flash crowd, first interval");
        stub.node(3).storeReplica(guid, new byte[] {7});
        stub.run(Duration.ofSeconds(5));
        int[] clients = {groups * 3, groups * 14, groups * 27};
        Set<Integer> before = holders(stub, nodes, guid);

        Map<Integer, TreeMap<Long, Integer>> servedAt = new HashMap<>(); // vertex -> read time (ms) -> reads
        Map<Integer, Long> appeared = new TreeMap<>();
        Map<Integer, Integer> unreported = new HashMap<>();
        long crowdMs = 40_000;
        for (long ms = 0; ms < crowdMs; ms += 50) {
            long at = ms;
            for (int client : clients) { // each reads 20 times a second
                unreported.merge(client, 1, Integer::sum);
                stub.node(client).read(guid, stub.node(client).config().defaultTtl(), r -> {
                    if (r.found()) {
                        servedAt.computeIfAbsent(stub.overlay.vertexOf(r.replica().id()), v -> new TreeMap<>())
                                .merge(at, 1, Integer::sum);
                    }
                });
            }
            if (ms % 1000 == 0) {
                unreported.forEach((c, n) -> stub.hint(c, new LoadReport(guid, n)));
                unreported.clear();
                for (int v : holders(stub, nodes, guid)) {
                    if (!before.contains(v)) {
                        appeared.putIfAbsent(v, ms);
                    }
                }
            }
            stub.run(Duration.ofMillis(50));
        }

        CacheManager manager = stub.manager(MANAGER);
        assertFalse(appeared.isEmpty(), "the crowd adds replicas");
        for (Map.Entry<Integer, Long> e : appeared.entrySet()) {
            // Holders are sampled each second: the replica appeared within the second before it was seen.
            long from = e.getValue() - 1000;
            long to = e.getValue() + 10_000;
            int first = servedAt.getOrDefault(e.getKey(), new TreeMap<>()).subMap(from, to).values().stream()
                    .mapToInt(Integer::intValue).sum();
            assertTrue(first > 0, "replica at " + e.getKey() + " (seen at " + e.getValue() + " ms) served nothing in its first 10 s; "
                    + "added " + appeared + ", served " + summary(servedAt));
        }
        assertTrue(appeared.size() <= clients.length, "no more replicas than sources of load: " + appeared.keySet());
        assertEquals(new TreeSet<>(appeared.keySet()), new TreeSet<>(vertices(stub, manager.hotObjects().extraReplicas(guid))),
                "the manager counts exactly the replicas it made");
    }

    private static Set<Integer> holders(Stub stub, int nodes, Id guid) {
        Set<Integer> out = new TreeSet<>();
        for (int v = 0; v < nodes; v++) {
            if (stub.node(v) != null && stub.node(v).replicas().contains(guid)) {
                out.add(v);
            }
        }
        return out;
    }

    private static List<Integer> vertices(Stub stub, List<NodeHandle> handles) {
        List<Integer> out = new ArrayList<>();
        handles.forEach(h -> out.add(stub.overlay.vertexOf(h.id())));
        return out;
    }

    private static Map<Integer, Integer> summary(Map<Integer, TreeMap<Long, Integer>> servedAt) {
        Map<Integer, Integer> out = new TreeMap<>();
        servedAt.forEach((v, m) -> out.put(v, m.values().stream().mapToInt(Integer::intValue).sum()));
        return out;
    }
}
