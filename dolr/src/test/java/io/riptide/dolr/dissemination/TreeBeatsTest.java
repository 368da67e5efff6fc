package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.dissemination.TreeMessages.Attach;
import io.riptide.dolr.dissemination.TreeMessages.Attached;
import io.riptide.dolr.dissemination.TreeMessages.Beats;
import io.riptide.dolr.dissemination.TreeMessages.Detach;
import io.riptide.dolr.dissemination.TreeMessages.TreeBeat;
import io.riptide.dolr.dissemination.TreeMessages.Update;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * What keeping a tree costs and what its upkeep repairs: one beat message a beat per child node
 * however many trees they share, each tree listed once a listing period; members re-attached when
 * their parent leaves, loses an update or forgets them; and no second copy of data the child holds.
 */
class TreeBeatsTest {
    private static final long MS = 1_000_000;
    private static final Duration BEAT = Duration.ofSeconds(1);
    private static final int ROOT = 0;
    private static final int A = 1;
    private static final int B = 2;

    private final Simulation sim = new Simulation(11);
    private final SimNetwork net = new SimNetwork(sim, (a, b) -> a == b ? 0 : 10 * MS);
    private final Map<Integer, Dissemination> trees = new HashMap<>();
    private final Map<Integer, SimEnv> envs = new HashMap<>();
    private final Map<Integer, Map<Id, byte[]>> stores = new HashMap<>();
    private final List<WireMessage> rootToA = new ArrayList<>();
    private final List<WireMessage> aToRoot = new ArrayList<>();
    /** Messages a host's dispatch drops before the tree sees them, as a lossy link would. */
    private Predicate<WireMessage> lostAtA = m -> false;

    private static byte[] v(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void hosts() {
        net.observe((from, to, m) -> {
            if (from == ROOT && to == A) {
                rootToA.add(m);
            } else if (from == A && to == ROOT) {
                aToRoot.add(m);
            }
        });
        for (int vertex : List.of(ROOT, A, B)) {
            Map<Id, byte[]> store = stores.computeIfAbsent(vertex, v -> new HashMap<>());
            envs.put(vertex, net.start(Id.hash("host " + vertex), vertex, env -> {
                Dissemination d = new Dissemination(env, BEAT, 3, guid -> CompletableFuture.completedFuture(store.get(guid)),
                        store::put, List::of);
                trees.put(vertex, d);
                return (from, m) -> {
                    if (vertex != A || !lostAtA.test(m)) {
                        d.handle(from, m);
                    }
                };
            }));
        }
        trees.values().forEach(Dissemination::start);
    }

    private NodeHandle self(int vertex) {
        return envs.get(vertex).self();
    }

    /** {@code guid} rooted at ROOT, held as {@code data} there and at each of {@code members}, attached in turn. */
    private void tree(Id guid, byte[] data, int... chain) {
        stores.get(ROOT).put(guid, data);
        trees.get(ROOT).startTree(guid, 1);
        int parent = ROOT;
        for (int member : chain) {
            stores.get(member).put(guid, data);
            trees.get(member).join(guid, self(parent));
            sim.runFor(100 * MS);
            parent = member;
        }
    }

    private NodeHandle parentOf(int vertex, Id guid) {
        return trees.get(vertex).view(guid).parent();
    }

    @Test
    void aParentBeatsEachChildOnceABeatAndListsEachSharedTreeOnceAListingPeriod() {
        hosts();
        List<Id> guids = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            Id guid = Id.hash("object " + i);
            guids.add(guid);
            tree(guid, v("data " + i), A);
        }
        sim.runFor(5_000 * MS);
        rootToA.clear();
        sim.runFor(Dissemination.LISTING_SLICES * BEAT.toMillis() * MS);

        List<Beats> beats = rootToA.stream().filter(m -> m instanceof Beats).map(m -> (Beats) m).toList();
        assertTrue(beats.size() >= Dissemination.LISTING_SLICES - 1 && beats.size() <= Dissemination.LISTING_SLICES + 1,
                "one beat message a beat for 300 shared trees, not one per tree: " + beats.size() + " in "
                        + Dissemination.LISTING_SLICES + " beats");
        Set<Id> listed = new HashSet<>();
        int lines = 0;
        for (Beats b : beats) {
            for (TreeBeat line : b.lines()) {
                listed.add(line.guid());
                lines++;
            }
        }
        assertEquals(Set.copyOf(guids), listed, "every shared tree listed within a listing period");
        assertTrue(lines <= 310, "each listed about once a period, not every beat: " + lines + " lines");
        for (Id guid : guids) {
            assertEquals(self(ROOT), parentOf(A, guid), "still attached");
        }
    }

    @Test
    void whenAMemberLeavesItsChildrenReattachAtOnceAndHearTheNextUpdate() {
        hosts();
        Id guid = Id.hash("a page");
        tree(guid, v("one"), A, B);
        sim.runFor(3_000 * MS);
        assertEquals(self(A), parentOf(B, guid));

        trees.get(A).leave(guid);
        sim.runFor(200 * MS); // well within one beat: the leaving member says so
        assertEquals(self(ROOT), parentOf(B, guid), "re-attached to the next ancestor up");

        trees.get(ROOT).publish(guid, v("two"), 2);
        sim.runFor(200 * MS);
        assertArrayEquals(v("two"), stores.get(B).get(guid));
    }

    @Test
    void aLostUpdateIsAskedForAgainAfterTheNextBeatListsTheNewStamp() {
        hosts();
        Id guid = Id.hash("a changing page");
        tree(guid, v("one"), A);
        sim.runFor(3_000 * MS);

        lostAtA = m -> m instanceof Update;
        trees.get(ROOT).publish(guid, v("two"), 2);
        sim.runFor(200 * MS);
        assertArrayEquals(v("one"), stores.get(A).get(guid), "the update was lost");
        lostAtA = m -> false;

        sim.runFor(2 * BEAT.toMillis() * MS); // not a listing period: the change is listed at the next beat
        assertArrayEquals(v("two"), stores.get(A).get(guid));
    }

    @Test
    void aMemberItsParentForgotReattachesOnceTheTreeGoesUnlisted() {
        hosts();
        Id forgotten = Id.hash("forgotten");
        Id kept = Id.hash("kept");
        tree(forgotten, v("f"), A);
        tree(kept, v("k"), A);
        sim.runFor(3_000 * MS);

        // The root drops A as a child of one tree without A hearing (a detach A never sent, say);
        // the other tree's beats keep the link alive, so only the missing listing can tell A.
        trees.get(ROOT).onDetach(self(A), new Detach(forgotten));
        assertTrue(trees.get(ROOT).view(forgotten).children().isEmpty());

        long period = Dissemination.LISTING_SLICES * BEAT.toMillis() * MS;
        sim.runFor(4 * period);
        assertEquals(List.of(self(A)), trees.get(ROOT).view(forgotten).children(), "A asked to be a child again");
        assertEquals(self(ROOT), parentOf(A, kept));
    }

    @Test
    void aReplicaAttachingToTheMemberItCopiedFromIsNotSentTheDataAgain() {
        hosts();
        Id guid = Id.hash("a large object");
        byte[] data = new byte[200_000];
        new java.util.Random(3).nextBytes(data);
        tree(guid, data, A);
        sim.runFor(10_000 * MS);

        List<Attached> answers = rootToA.stream().filter(m -> m instanceof Attached).map(m -> (Attached) m).toList();
        assertEquals(1, answers.size());
        assertTrue(answers.get(0).same(), "the root confirms the data A holds");
        assertEquals(0, answers.get(0).data().length, "and does not send it again");
        assertEquals(1, aToRoot.stream().filter(m -> m instanceof Attach).count(), "A took the stamp: no asking again");

        byte[] next = data.clone();
        next[0] ^= 1;
        trees.get(ROOT).publish(guid, next, 2);
        sim.runFor(200 * MS);
        assertArrayEquals(next, stores.get(A).get(guid), "and updates reach it");
    }

    @Test
    void aReplicaHoldingOtherDataThanItsParentIsSentTheParentsData() {
        hosts();
        Id guid = Id.hash("an object that changed meanwhile");
        stores.get(A).put(guid, v("old"));
        stores.get(ROOT).put(guid, v("new"));
        trees.get(ROOT).startTree(guid, 5);
        trees.get(A).join(guid, self(ROOT));
        sim.runFor(1_000 * MS);

        assertArrayEquals(v("new"), stores.get(A).get(guid));
        assertEquals(5, trees.get(A).view(guid).stamp());
    }

    @Test
    void aRootThatEvictsItsCopyKeepsTheTreeSoTheNextVersionStillReachesTheReplicas() {
        hosts();
        Id guid = Id.hash("a page its gateway evicted");
        Id alone = Id.hash("a page nobody else holds");
        tree(guid, v("one"), A);
        tree(alone, v("x"));
        sim.runFor(3_000 * MS);

        stores.get(ROOT).remove(guid);
        assertTrue(trees.get(ROOT).evicted(guid, false), "a root with children stays the root");
        assertTrue(!trees.get(ROOT).evicted(alone, false) && trees.get(ROOT).view(alone) == null, "one without children goes");
        sim.runFor(10 * BEAT.toMillis() * MS);
        assertEquals(self(ROOT), parentOf(A, guid), "the replica stays attached");

        trees.get(ROOT).publish(guid, v("two"), 2);
        sim.runFor(200 * MS);
        assertArrayEquals(v("two"), stores.get(A).get(guid), "the next version reaches it");
        assertArrayEquals(v("two"), stores.get(ROOT).get(guid), "and the root holds it again");

        stores.get(ROOT).remove(guid);
        trees.get(ROOT).evicted(guid, false);
        trees.get(A).leave(guid);
        sim.runFor(200 * MS);
        assertEquals(null, trees.get(ROOT).view(guid), "a root without data or children forgets the tree");
    }
}
