package io.riptide.dolr;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SmokeOverlayTest {
    @Test
    void smoke() {
        int n = 300;
        Simulation sim = new Simulation(1);
        // 10 groups; 2 ms inside a group, 40 ms across.
        SimulatedOverlay overlay = new SimulatedOverlay(sim, (a, b) -> a == b ? 0 : (a % 10 == b % 10 ? 2_000_000L : 40_000_000L),
                DolrConfig.defaults(), v -> v % 10);
        overlay.checkWireFormat();
        List<Integer> vs = new ArrayList<>();
        for (int i = 0; i < n; i++) vs.add(i);
        int joined = overlay.addAll(vs, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        sim.runFor(Duration.ofSeconds(30).toNanos());
        System.out.println("joined " + joined + " events " + sim.eventsRun());
        int ok = 0, bad = 0;
        int leafOk = 0;
        for (int v : vs) {
            OverlayNode node = overlay.node(v);
            List<Id> truth = overlay.trueLeafSet(node.self().id(), 8);
            if (node.leafSet().size() == truth.size() && truth.stream().allMatch(id -> node.leafSet().contains(id))) leafOk++;
        }
        System.out.println("leaf sets exact: " + leafOk + "/" + n);
        for (int v : vs) {
            OverlayNode node = overlay.node(v);
            if (!node.isJoined()) System.out.println("not joined " + v + " leaf=" + node.leafSet().size() + " table=" + node.routingTable().all().size());
            List<Id> truth = overlay.trueLeafSet(node.self().id(), 8);
            if (!(node.leafSet().size() == truth.size() && truth.stream().allMatch(id -> node.leafSet().contains(id)))) {
                long missing = truth.stream().filter(id -> !node.leafSet().contains(id)).count();
                System.out.println("leaf mismatch " + v + " size=" + node.leafSet().size() + " missing=" + missing + " joined=" + node.isJoined());
            }
        }
        SplittableRandom r = new SplittableRandom(5);
        for (int i = 0; i < 200; i++) {
            byte[] b = new byte[20]; r.nextBytes(b);
            Id key = Id.fromBytes(b);
            int src = r.nextInt(n);
            // follow next hops
            int cur = src; int hops = 0;
            while (true) {
                var next = overlay.node(cur).nextHop(key);
                if (next == null) break;
                cur = next.address().port(); hops++;
                if (hops > 20) break;
            }
            if (cur == overlay.trueRoot(key)) ok++; else bad++;
        }
        System.out.println("routes ok " + ok + " bad " + bad);
        // publish and locate
        List<Id> guids = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Id g = Id.hash("obj" + i);
            guids.add(g);
            overlay.node(r.nextInt(n)).storeReplica(g, new byte[]{1, 2, 3});
        }
        sim.runFor(Duration.ofSeconds(15).toNanos());
        List<LocateResult> results = new ArrayList<>();
        for (Id g : guids) {
            overlay.node(r.nextInt(n)).locate(g, 16, true, results::add);
        }
        sim.runFor(Duration.ofSeconds(5).toNanos());
        long found = results.stream().filter(LocateResult::found).count();
        System.out.println("located " + found + "/" + results.size() + " " + results.stream().filter(x -> !x.found()).map(LocateResult::failure).toList());
        assertEquals(200, ok);
        assertEquals(50, found);
    }
}
