package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Two members of one wide campus whose two-hop areas miss each other: the node their seeks both
 * pass through introduces the later seeker to the earlier one, so one of them moves under the
 * other and the campus's outside link is crossed once, not twice.
 */
class SeekIntroductionTest {
    private static final long MS = 1_000_000;
    private static final Id GUID = Id.hash("an object two far corners of a campus hold");
    private static final int ROOT = 100;
    /** The campus is a line of hosts 0..4, 1 ms apart; the root is far away. */
    private static final int FIRST = 0;
    private static final int SECOND = 4;

    private final Simulation sim = new Simulation(7);
    private final SimNetwork net = new SimNetwork(sim, (a, b) -> a == b ? 0 : (a >= ROOT) != (b >= ROOT) ? 40 * MS : Math.abs(a - b) * MS);
    private final Map<Integer, Dissemination> trees = new HashMap<>();
    private final Map<Integer, SimEnv> envs = new HashMap<>();
    private final Map<Integer, List<Integer>> areas = Map.of(
            FIRST, List.of(1), 1, List.of(2), 2, List.of(1, 3), 3, List.of(2), SECOND, List.of(3), ROOT, List.of());

    private void host(int vertex) {
        envs.put(vertex, net.start(Id.hash("host " + vertex), vertex, env -> {
            Dissemination d = new Dissemination(env, Duration.ofSeconds(1), 3,
                    guid -> CompletableFuture.completedFuture("v1".getBytes(StandardCharsets.UTF_8)), (guid, data) -> { },
                    () -> area(vertex));
            trees.put(vertex, d);
            return (from, m) -> d.handle(from, m);
        }));
    }

    private List<NodeHandle> area(int vertex) {
        List<NodeHandle> out = new ArrayList<>();
        for (int n : areas.get(vertex)) {
            out.add(envs.get(n).self());
        }
        return out;
    }

    private int parentOf(int vertex) {
        return trees.get(vertex).view(GUID).parent().address().port();
    }

    @Test
    void theNodeBetweenTwoSeekersIntroducesThemAndOneMovesUnderTheOther() {
        for (int v : List.of(0, 1, 2, 3, 4, ROOT)) {
            host(v);
        }
        trees.values().forEach(Dissemination::start);
        trees.get(ROOT).startTree(GUID, 1);
        // Each copied from the root (location had not learnt of the other yet) and attaches to it.
        trees.get(FIRST).join(GUID, envs.get(ROOT).self());
        sim.runFor(2_000 * MS);
        trees.get(SECOND).join(GUID, envs.get(ROOT).self());
        sim.runFor(30_000 * MS);

        // FIRST's looks reach 1 and 2, SECOND's 3 and 2: only node 2 saw both.
        int outside = (parentOf(FIRST) == ROOT ? 1 : 0) + (parentOf(SECOND) == ROOT ? 1 : 0);
        assertEquals(1, outside, "one of the two links to the root; parents " + parentOf(FIRST) + ", " + parentOf(SECOND));
    }
}
