package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.object.WebObject;
import io.riptide.core.store.MapTier;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.placement.MasterForwarding;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * N-chance forwarding in live node stores: an evicted master goes to a local-area neighbour, which
 * keeps it (locatable, byte for byte) unless that costs one of its own masters; non-masters are
 * dropped as before, and a copy is forwarded at most {@link MasterForwarding#MAX_PASSES} times.
 */
class MasterForwardingTest {
    private static final int NODES = 120;
    private static final int GROUPS = 6;
    private static final int STORE_OBJECTS = 4;
    private static final int HOLDER = 12;
    private static final SigningKey PROVIDER = SigningKey.fromSeed(filled(32, 7));

    private final SimulatedOverlay overlay = OverlayFixture.settled(21, NODES, GROUPS,
            DolrConfig.defaults().withStore(1 << 20, STORE_OBJECTS), v -> OverlayApplication.NONE);
    private final GroupLatency groups = new GroupLatency(GROUPS);

    private static byte[] filled(int n, int fill) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    /** A signed replica as a gateway stores it: a head (certificate) and a body. */
    private static CachedCopy signed(String url) {
        byte[] body = ("<html>" + url + "</html>").getBytes(StandardCharsets.UTF_8);
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Content-Type", "text/html"), body);
        ObjectCertificate cert = ObjectCertificate.sign(PROVIDER, url, "", 1, response, 1_700_000_000_000L,
                1_700_000_000_010L, 600);
        return CachedCopy.of(new WebObject(cert, response));
    }

    @Test
    void anEvictedMasterIsKeptByALocalAreaNeighbourAndStillReadByteForByte() throws Exception {
        OverlayNode holder = overlay.node(HOLDER);
        List<CachedCopy> copies = new ArrayList<>();
        for (int i = 0; i <= STORE_OBJECTS; i++) { // one more than fits: the oldest must go
            CachedCopy copy = signed("http://example.com/forwarded/" + i);
            copies.add(copy);
            assertTrue(holder.storeReplica(copy.object().certificate().guid(), copy.toBytes()));
            run(overlay, Duration.ofSeconds(1));
        }
        Id evicted = copies.get(0).object().certificate().guid();
        byte[] original = copies.get(0).toBytes();
        run(overlay, Duration.ofSeconds(2));

        assertFalse(holder.replicas().contains(evicted));
        assertEquals(1, holder.replicaEvictions());
        assertEquals(0, holder.nonMasterEvictions(), "the evicted copy was a master");
        assertEquals(1, holder.masterForwards().forwarded());
        List<OverlayNode> holders = holdersOf(evicted);
        assertEquals(1, holders.size(), "exactly one node took it");
        OverlayNode keeper = holders.get(0);
        assertTrue(holder.localArea().neighbours().stream().anyMatch(n -> n.id().equals(keeper.self().id())),
                "the keeper is one of the holder's local-area neighbours");
        assertEquals(1, keeper.masterForwards().accepted());
        assertArrayEquals(original, keeper.replicas().get(evicted).join(), "kept byte for byte");

        int reader = otherThan(HOLDER, overlay.vertexOf(keeper.self().id()));
        LocateResult r = read(reader, evicted);
        assertTrue(r.found(), "another node still finds it");
        assertEquals(keeper.self().id(), r.replica().id());
        assertArrayEquals(original, r.data());
        ObjectVerifier verifier = new ObjectVerifier(Set.of(PROVIDER.publicKey()), new VersionFloor(16));
        WebObject read = CachedCopy.fromBytes(r.data(), 1 << 20).object();
        assertEquals(Verification.Accepted.class, verifier.verify(read, evicted).getClass(), "its signature still verifies");
    }

    @Test
    void aCopyANeighbourAlsoHoldsIsEvictedWithoutForwarding() {
        OverlayNode holder = overlay.node(HOLDER);
        OverlayNode neighbour = overlay.node(overlay.vertexOf(holder.localArea().neighbours().get(0).id()));
        List<Id> shared = new ArrayList<>();
        for (int i = 0; i < STORE_OBJECTS; i++) {
            Id guid = Id.hash("shared " + i);
            shared.add(guid);
            neighbour.storeReplica(guid, new byte[] {2, (byte) i});
            holder.storeReplica(guid, new byte[] {2, (byte) i});
        }
        run(overlay, holder.config().bloomRefresh().multipliedBy(2)); // the neighbour's filter reaches the holder

        holder.storeReplica(Id.hash("new object"), new byte[] {3}); // one over the bound
        run(overlay, Duration.ofSeconds(2));

        assertFalse(holder.replicas().contains(shared.get(0)));
        assertEquals(1, holder.nonMasterEvictions());
        assertEquals(0, total(MasterForwarding.Stats::forwarded), "nothing forwarded anywhere");
        assertEquals(List.of(neighbour), holdersOf(shared.get(0)), "only the neighbour's copy is left");
    }

    @Test
    void aCopyForwardedTwiceIsDroppedOnItsNextEviction() {
        Id guid = Id.hash("passed around");
        byte[] data = filled(100, 9);
        OverlayNode at = overlay.node(HOLDER);
        at.storeReplica(guid, data);
        run(overlay, Duration.ofSeconds(1));
        for (int pass = 1; pass <= MasterForwarding.MAX_PASSES; pass++) {
            // Long enough for the filters to forget the previous holder: the copy here is a master.
            run(overlay, at.config().bloomRefresh().multipliedBy(3));
            evict(at, guid);
            run(overlay, Duration.ofSeconds(2));
            List<OverlayNode> holders = holdersOf(guid);
            assertEquals(1, holders.size(), "forward " + pass + " kept by one node");
            at = holders.get(0);
            assertArrayEquals(data, at.replicas().get(guid).join());
        }
        assertEquals(MasterForwarding.MAX_PASSES, total(MasterForwarding.Stats::forwarded));
        assertEquals(MasterForwarding.MAX_PASSES, total(MasterForwarding.Stats::accepted));

        run(overlay, at.config().bloomRefresh().multipliedBy(3));
        evict(at, guid);
        run(overlay, Duration.ofSeconds(2));
        assertEquals(List.of(), holdersOf(guid), "dropped at the bound");
        assertEquals(1, at.masterForwards().droppedAtBound());
        assertEquals(MasterForwarding.MAX_PASSES, total(MasterForwarding.Stats::forwarded), "not forwarded a third time");
    }

    @Test
    void aNeighbourWhoseStoreIsFullOfItsOwnMastersDeclines() {
        OverlayNode holder = overlay.node(HOLDER);
        // Every other node's store is full, each object the only copy around: wherever the copy goes,
        // taking it would cost the receiver one of its own masters.
        List<OverlayNode> others = new ArrayList<>();
        List<Id> theirs = new ArrayList<>();
        for (int v = 0; v < NODES; v++) {
            if (v == HOLDER) {
                continue;
            }
            OverlayNode n = overlay.node(v);
            others.add(n);
            for (int i = 0; i < STORE_OBJECTS; i++) {
                Id guid = Id.hash(v + " own " + i);
                theirs.add(guid);
                assertTrue(n.storeReplica(guid, new byte[] {4, (byte) i, (byte) v}));
            }
        }
        Id guid = Id.hash("nowhere to go");
        holder.storeReplica(guid, filled(50, 5));
        run(overlay, holder.config().bloomRefresh().multipliedBy(2));

        evict(holder, guid);
        run(overlay, Duration.ofSeconds(2));

        assertEquals(1, holder.masterForwards().forwarded());
        assertEquals(1, total(MasterForwarding.Stats::declined), "declined");
        assertEquals(0, total(MasterForwarding.Stats::accepted));
        assertEquals(List.of(), holdersOf(guid), "the copy was dropped");
        for (OverlayNode n : others) {
            assertEquals(0, n.replicaEvictions(), "no receiver gave up anything of its own");
        }
        assertTrue(theirs.stream().allMatch(g -> holdersOf(g).size() == 1), "every master still held");
    }

    @Test
    void aForwardedCopyTakesItsHoldersPlaceInTheTreeAndHearsTheNextUpdate() {
        OverlayNode holder = overlay.node(HOLDER);
        // Outside the holder's area, so the holder's copy is its area's last.
        OverlayNode root = java.util.stream.IntStream.range(0, NODES).filter(v -> v != HOLDER).mapToObj(overlay::node)
                .filter(n -> holder.localArea().neighbours().stream().noneMatch(h -> h.id().equals(n.self().id())))
                .findFirst().orElseThrow();
        Id guid = Id.hash("a page that changes");
        byte[] v1 = filled(2_000, 1);
        root.storeReplica(guid, v1);
        root.startTree(guid, 1);
        holder.storeReplica(guid, v1);
        holder.joinTree(guid, root.self());
        run(overlay, holder.config().bloomRefresh().multipliedBy(2));
        assertEquals(root.self(), holder.treeOf(guid).parent());

        evict(holder, guid);
        run(overlay, Duration.ofSeconds(2));
        assertEquals(1, holder.masterForwards().forwarded());
        OverlayNode keeper = holdersOf(guid).stream().filter(n -> n != root).findFirst().orElseThrow();
        assertEquals(root.self(), keeper.treeOf(guid).parent(), "the keeper attached where the holder was");

        byte[] v2 = filled(2_000, 2);
        assertTrue(root.publishUpdate(guid, v2, 2));
        run(overlay, Duration.ofSeconds(2));
        assertArrayEquals(v2, keeper.replicas().get(guid).join(), "so an update reaches the forwarded copy");
    }

    @Test
    void aRootsForwardedCopyAttachesUnderTheRootWhichSendsItTheNextVersion() {
        OverlayNode root = overlay.node(HOLDER);
        Id guid = Id.hash("a page its gateway's node evicted");
        root.storeReplica(guid, filled(2_000, 1));
        root.startTree(guid, 1);
        run(overlay, root.config().bloomRefresh().multipliedBy(2));

        evict(root, guid);
        run(overlay, Duration.ofSeconds(2));
        OverlayNode keeper = holdersOf(guid).get(0);
        assertEquals(root.self(), keeper.treeOf(guid).parent(), "the root kept its tree, without the data, for the copy");

        byte[] v2 = filled(2_000, 2);
        assertTrue(root.publishUpdate(guid, v2, 2), "the gateway's next version goes through the tree it still roots");
        run(overlay, Duration.ofSeconds(2));
        assertArrayEquals(v2, keeper.replicas().get(guid).join());
    }

    /** Makes {@code node}'s in-memory tier evict {@code guid}'s object record, as if it needed the room. */
    private static void evict(OverlayNode node, Id guid) {
        assertTrue(((MapTier) node.replicas().tier()).evict(guid), "held at " + node.self().id().shortHex());
    }

    private List<OverlayNode> holdersOf(Id guid) {
        List<OverlayNode> holders = new ArrayList<>();
        for (int v = 0; v < NODES; v++) {
            if (overlay.node(v).replicas().contains(guid)) {
                holders.add(overlay.node(v));
            }
        }
        return holders;
    }

    private long total(java.util.function.ToLongFunction<MasterForwarding.Stats> counter) {
        long sum = 0;
        for (int v = 0; v < NODES; v++) {
            sum += counter.applyAsLong(overlay.node(v).masterForwards());
        }
        return sum;
    }

    private int otherThan(int a, int b) {
        for (int v = 0; v < NODES; v++) {
            if (v != a && v != b) {
                return v;
            }
        }
        throw new AssertionError();
    }

    private LocateResult read(int vertex, Id guid) {
        LocateResult[] out = new LocateResult[1];
        overlay.node(vertex).read(guid, 16, r -> out[0] = r);
        run(overlay, overlay.node(vertex).config().locateDeadline().plusSeconds(1));
        assertNotNull(out[0]);
        assertNotEquals(null, out[0].data());
        return out[0];
    }
}
