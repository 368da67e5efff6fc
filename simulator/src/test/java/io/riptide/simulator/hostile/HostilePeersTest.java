package io.riptide.simulator.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fifth of the nodes, chosen by the seed, drop, misroute, withhold and forge. Honest nodes reading
 * honest objects with {@code readVerified} never get a forged byte, and get the object far more often
 * than plain reads, which also return forged bytes. Not yet the target (99%): at these seeds
 * verified reads succeed 78-91%, plain reads 50-58% (false pointers to hostile nodes lie on most
 * routes, and a pointer holder follows only its nearest pointer; see docs/architecture.md, "Hostile peers").
 */
class HostilePeersTest {
    private static final int NODES = 150;
    private static final int OBJECTS = 20;
    private static final int READS = 300;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void verifiedReadsOfHonestObjectsSucceedAndNoForgedByteIsServed(long seed) {
        Simulation sim = new Simulation(seed);
        GroupLatency latency = new GroupLatency(5);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults(), latency::groupOf,
                v -> OverlayApplication.NONE);
        SplittableRandom choice = new SplittableRandom(seed ^ 0x4057);
        Set<Integer> hostile = new HashSet<>();
        while (hostile.size() < NODES / 5) {
            hostile.add(choice.nextInt(NODES));
        }
        Map<Id, byte[]> truth = new HashMap<>();
        HostileTally tally = new HostileTally();
        overlay.interceptWith((vertex, env, node) -> hostile.contains(vertex)
                ? new HostilePeer(env, node, guid -> forged(truth.get(guid)), tally) : node);
        List<Integer> vertices = new ArrayList<>();
        for (int v = 0; v < NODES; v++) {
            vertices.add(v);
        }
        overlay.addAll(vertices, Duration.ofMillis(50), Duration.ofSeconds(60), () -> { });
        sim.runFor(Duration.ofSeconds(30).toNanos());
        List<Integer> honest = new ArrayList<>(vertices);
        honest.removeAll(hostile);
        for (int v : vertices) {
            overlay.node(v).useSaltedRoots(4);
        }

        Id[] guids = new Id[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            guids[i] = Id.hash("hostile/" + i);
            byte[] data = ("object " + i + " as its provider signed it").getBytes();
            truth.put(guids[i], data);
            overlay.node(honest.get(choice.nextInt(honest.size()))).storeReplica(guids[i], data);
        }
        sim.runFor(Duration.ofSeconds(10).toNanos());

        int[] verified = new int[3]; // succeeded, forged served, refused
        int[] plain = new int[2]; // succeeded with the true bytes, forged bytes returned
        for (int r = 0; r < READS; r++) {
            Id guid = guids[choice.nextInt(OBJECTS)];
            byte[] want = truth.get(guid);
            OverlayNode reader = overlay.node(honest.get(choice.nextInt(honest.size())));
            reader.readVerified(guid, 32, data -> {
                boolean ok = Arrays.equals(data, want); // the signature check, in effect
                if (!ok) {
                    verified[2]++;
                }
                return ok;
            }, result -> count(result, want, verified));
            reader.read(guid, 32, result -> {
                if (result.found() && result.data() != null) {
                    plain[Arrays.equals(result.data(), want) ? 0 : 1]++;
                }
            });
            sim.runFor(Duration.ofMillis(50).toNanos());
        }
        sim.runFor(Duration.ofSeconds(10).toNanos());

        double success = verified[0] / (double) READS;
        System.out.printf("hostile seed %d: verified %.4f (refused %d), plain %.4f (forged %d); hostile dropped %d misrouted %d"
                        + " withheld %d forged %d false pointers %d%n", seed, success, verified[2], plain[0] / (double) READS, plain[1],
                tally.dropped(), tally.misrouted(), tally.withheld(), tally.forgedSent(), tally.falsePointers());
        assertEquals(0, verified[1], "forged bytes served by verified reads");
        assertTrue(success >= 0.75 && verified[0] > plain[0] + READS / 5,
                "verified reads succeeded " + success + ", plain " + plain[0] / (double) READS);
        assertTrue(plain[1] > 0, "plain reads did return forged bytes: what verification is for");
        assertTrue(tally.forgedSent() > 0 && tally.dropped() > 0, "the hostile nodes did act");
    }

    private static void count(LocateResult result, byte[] want, int[] verified) {
        if (result.found()) {
            verified[Arrays.equals(result.data(), want) ? 0 : 1]++;
        }
    }

    /** The object with its body tampered with: what a hostile holder would pass off. */
    private static byte[] forged(byte[] honest) {
        byte[] out = honest == null ? new byte[] {0} : honest.clone();
        out[out.length - 1] ^= 1;
        return out;
    }
}
