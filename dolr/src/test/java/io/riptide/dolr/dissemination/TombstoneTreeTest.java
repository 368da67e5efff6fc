package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.Tombstone;
import io.riptide.core.object.WebObject;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.simulation.OverlayFixture;
import io.riptide.dolr.simulation.SimulatedOverlay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A purge down a dissemination tree, in the simulated runtime: every replica takes the signed
 * tombstone and drops the body; a forged tombstone or a replayed older version is refused by the
 * first member it reaches, counted, and goes no further.
 */
class TombstoneTreeTest {
    private static final int NODES = 120;
    private static final String URL = "http://example.com/taken-down.html";
    private static final SigningKey PROVIDER = SigningKey.fromSeed(seed(7));
    private static final Id GUID = ObjectNames.objectGuid(PROVIDER.publicKey(), URL, "");
    private static final byte[] BODY = "the page an operator was asked to take down".repeat(40).getBytes(StandardCharsets.UTF_8);

    private static byte[] seed(int b) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) b);
        return s;
    }

    private static byte[] version(long v) {
        StoredResponse r = new StoredResponse(200, "OK", Headers.of("cache-control", "max-age=60"), BODY);
        return CachedCopy.of(WebObject.of(ObjectCertificate.sign(PROVIDER, URL, "", v, r, 1_000, 1_000, 60), BODY)).toBytes();
    }

    private static byte[] tombstone(long v) {
        return CachedCopy.of(Tombstone.sign(PROVIDER, URL, "", v, 5_000)).toBytes();
    }

    private static List<Integer> buildTree(SimulatedOverlay overlay, int count) {
        OverlayNode root = overlay.node(0);
        root.storeReplica(GUID, version(1));
        root.startTree(GUID, 1);
        OverlayFixture.run(overlay, Duration.ofSeconds(2));
        List<Integer> members = new ArrayList<>();
        for (int i = 3; members.size() < count; i += 7) {
            OverlayNode node = overlay.node(i % NODES);
            LocateResult[] read = new LocateResult[1];
            node.read(GUID, 16, r -> read[0] = r);
            OverlayFixture.run(overlay, Duration.ofSeconds(1));
            assertTrue(read[0].found());
            node.storeReplica(GUID, read[0].data());
            node.joinTree(GUID, read[0].replica());
            OverlayFixture.run(overlay, Duration.ofMillis(500));
            members.add(i % NODES);
        }
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        return members;
    }

    private static byte[] bodyDigest() {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(BODY);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyReplicaKeepsTheTombstoneAndDropsTheBody() {
        SimulatedOverlay overlay = OverlayFixture.settled(41, NODES, 6);
        List<Integer> members = buildTree(overlay, 12);
        for (int m : members) {
            assertTrue(overlay.node(m).replicas().holdsBody(bodyDigest()), "before the purge, " + m + " holds the body");
        }
        assertTrue(overlay.node(0).publishUpdate(GUID, tombstone(2), 2));
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        for (int m : members) {
            OverlayNode node = overlay.node(m);
            assertArrayEquals(tombstone(2), node.replicas().get(GUID).join(), "replica on " + m);
            assertFalse(node.replicas().holdsBody(bodyDigest()), "the body is gone from " + m);
            assertEquals(1, node.updateCheck().tombstonesAccepted());
            assertEquals(2, node.versionFloor().floor(GUID));
        }
        assertFalse(overlay.node(0).replicas().holdsBody(bodyDigest()), "the root dropped it too");
    }

    @Test
    void aForgedTombstoneAndAReplayedVersionStopAtTheFirstMember() {
        SimulatedOverlay overlay = OverlayFixture.settled(42, NODES, 6);
        List<Integer> members = buildTree(overlay, 12);
        overlay.node(0).publishUpdate(GUID, tombstone(2), 2);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));

        // A root gone bad: a tombstone of a higher version whose signature is not the provider's.
        WebObject real = Tombstone.sign(PROVIDER, URL, "", 3, 6_000);
        byte[] signature = real.certificate().signature();
        signature[5] ^= 1;
        byte[] forged = CachedCopy.of(WebObject.of(real.certificate().withSignature(signature), new byte[0])).toBytes();
        overlay.node(0).publishUpdate(GUID, forged, 3);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        // Then the old content, replayed with a newer stamp.
        overlay.node(0).publishUpdate(GUID, version(1), 4);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));

        long tombstonesRefused = 0;
        long refused = 0;
        for (int m : members) {
            OverlayNode node = overlay.node(m);
            assertArrayEquals(tombstone(2), node.replicas().get(GUID).join(), "replica on " + m + " still the genuine tombstone");
            assertFalse(node.replicas().holdsBody(bodyDigest()));
            tombstonesRefused += node.updateCheck().tombstonesRefused();
            refused += node.updateCheck().refused();
        }
        long children = overlay.node(0).treeOf(GUID).children().size();
        assertTrue(children > 0);
        assertEquals(children, tombstonesRefused, "only the root's children saw the forgery");
        assertEquals(2 * children, refused, "and the replay; neither went further down");
    }
}
