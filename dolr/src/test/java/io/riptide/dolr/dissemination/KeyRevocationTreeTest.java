package io.riptide.dolr.dissemination;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.KeyRotation;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
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
 * A provider key revocation down a dissemination tree, in the simulated runtime: every member learns
 * it, the revoked key's replicas (in the tree and elsewhere in the store) give way to the revocation,
 * the new key's objects stay, and a forged revocation stops at the first member.
 */
class KeyRevocationTreeTest {
    private static final int NODES = 120;
    private static final String URL = "http://example.com/old-key.html";
    private static final SigningKey OLD = SigningKey.fromSeed(seed(7));
    private static final SigningKey NEW = SigningKey.fromSeed(seed(8));
    private static final Id GUID = ObjectNames.objectGuid(OLD.publicKey(), URL, "");
    private static final Id OTHER = ObjectNames.objectGuid(OLD.publicKey(), URL + "?other", "");
    private static final Id NEW_GUID = ObjectNames.objectGuid(NEW.publicKey(), URL, "");
    private static final byte[] BODY = "signed by a key about to be revoked".repeat(40).getBytes(StandardCharsets.UTF_8);

    private static byte[] seed(int b) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) b);
        return s;
    }

    private static byte[] copy(SigningKey key, String url) {
        StoredResponse r = new StoredResponse(200, "OK", Headers.of("cache-control", "max-age=60"), BODY);
        return CachedCopy.of(WebObject.of(ObjectCertificate.sign(key, url, "", 1, r, 1_000, 1_000, 60), BODY)).toBytes();
    }

    private static KeyRecords revocation(SigningKey signer) {
        return new KeyRecords(List.of(KeyRotation.sign(OLD, NEW.publicKey(), 1, 2_000)),
                List.of(KeyRevocation.sign(signer, OLD.publicKey(), 3_000)));
    }

    private static List<Integer> buildTree(SimulatedOverlay overlay, int count) {
        OverlayNode root = overlay.node(0);
        root.storeReplica(GUID, copy(OLD, URL));
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

    @Test
    void everyMemberLearnsTheRevocationAndDropsTheRevokedKeysReplicas() throws Exception {
        SimulatedOverlay overlay = OverlayFixture.settled(43, NODES, 6);
        List<Integer> members = buildTree(overlay, 10);
        OverlayNode outside = overlay.node(members.get(0));
        outside.storeReplica(OTHER, copy(OLD, URL + "?other"));
        outside.storeReplica(NEW_GUID, copy(NEW, URL));

        KeyRecords records = revocation(OLD);
        overlay.node(0).learnKeyRecords(records);
        assertTrue(overlay.node(0).publishUpdate(GUID, records.toBytes(), 2));
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        for (int m : members) {
            OverlayNode node = overlay.node(m);
            assertTrue(node.revokedKeys().isRevoked(OLD.publicKey()), "node " + m + " learned it");
            assertEquals(records, KeyRecords.fromBytes(node.replicas().get(GUID).join()), "the revocation replaced the replica on " + m);
            assertEquals(1, node.updateCheck().keyRecordsAccepted());
            assertFalse(node.updateCheck().admits(GUID, copy(OLD, URL)), "no version of the revoked key is taken again");
        }
        assertTrue(KeyRecords.isKeyRecords(overlay.node(0).replicas().get(GUID).join()), "the root's copy too");
        assertTrue(KeyRecords.isKeyRecords(outside.replicas().get(OTHER).join()), "a replica in no tree gives way as well");
        assertArrayEquals(copy(NEW, URL), outside.replicas().get(NEW_GUID).join(), "the new key's object stays");
        assertTrue(outside.revokedReplicasDropped() >= 2);
    }

    @Test
    void aForgedRevocationStopsAtTheFirstMember() {
        SimulatedOverlay overlay = OverlayFixture.settled(44, NODES, 6);
        List<Integer> members = buildTree(overlay, 10);
        // Signed by the successor: it may not revoke the key that certified it.
        overlay.node(0).publishUpdate(GUID, revocation(NEW).toBytes(), 2);
        OverlayFixture.run(overlay, Duration.ofSeconds(3));
        long refused = 0;
        for (int m : members) {
            OverlayNode node = overlay.node(m);
            assertFalse(node.revokedKeys().isRevoked(OLD.publicKey()));
            assertArrayEquals(copy(OLD, URL), node.replicas().get(GUID).join(), "the replica stays on " + m);
            refused += node.updateCheck().keyRecordsRefused();
        }
        assertEquals(overlay.node(0).treeOf(GUID).children().size(), refused, "only the root's children saw it");
    }
}
