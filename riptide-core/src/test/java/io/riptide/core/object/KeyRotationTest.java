package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rotation certificates and revocations as a proxy's verifier and a node's update check see them. */
class KeyRotationTest {
    private static final SigningKey OLD = Samples.PROVIDER;
    private static final SigningKey NEW = Samples.key(11);
    private static final SigningKey NEWER = Samples.key(12);
    private static final SigningKey STRANGER = Samples.key(13);
    private static final long T = Samples.RESPONSE_MS;

    private static KeyRecords rotation(SigningKey from, SigningKey to, long serial) {
        return new KeyRecords(List.of(KeyRotation.sign(from, to.publicKey(), serial, T + serial)), List.of());
    }

    private static KeyRecords revocation(SigningKey signer, SigningKey revoked, long at) {
        return new KeyRecords(List.of(), List.of(KeyRevocation.sign(signer, revoked.publicKey(), at)));
    }

    private static WebObject object(SigningKey key, long version) {
        return Samples.object(key, Samples.URL, "", version, Samples.body(64, version));
    }

    private static Id guid(SigningKey key) {
        return ObjectNames.objectGuid(key.publicKey(), Samples.URL, "");
    }

    @Test
    void recordsSurviveTheStoredAndFileForms(@TempDir Path dir) throws Exception {
        KeyRecords records = rotation(OLD, NEW, 1).with(revocation(OLD, OLD, T + 9));
        assertTrue(KeyRecords.isKeyRecords(records.toBytes()));
        assertEquals(records, KeyRecords.fromBytes(records.toBytes()));
        Path file = dir.resolve("cert");
        records.save(file, "test");
        assertEquals(records, KeyRecords.load(file));
        assertFalse(KeyRecords.isKeyRecords(CachedCopy.of(object(OLD, 1)).toBytes()), "a copy is no bundle");

        Files.writeString(file, "rotation: not base64!\n");
        IOExceptionMessage.assertContains(assertThrows(java.io.IOException.class, () -> KeyRecords.load(file)), "cert:1");
        Files.writeString(file, "# nothing\n");
        IOExceptionMessage.assertContains(assertThrows(java.io.IOException.class, () -> KeyRecords.load(file)), "no 'rotation: '");
    }

    @Test
    void aCertifiedNewKeyIsTrustedAndItsObjectsVerifyWhileTheOldKeyKeepsWorking() {
        ObjectVerifier verifier = new ObjectVerifier(ProviderTrust.of(Set.of(OLD.publicKey())), new VersionFloor(16), 1 << 20,
                new io.riptide.core.crypto.VerifiedSignatures());
        assertEquals(RejectReason.UNTRUSTED_PROVIDER,
                verifier.verify(object(NEW, 1), guid(NEW)).rejectReason().orElseThrow(), "not before the certificate");

        List<Verification> verdicts = verifier.trust().learn(rotation(OLD, NEW, 1));
        assertTrue(verdicts.get(0).ok(), verdicts.toString());
        assertTrue(verifier.verify(object(NEW, 1), guid(NEW)).ok());
        assertTrue(verifier.verify(object(OLD, 1), guid(OLD)).ok(), "rotation is no flag day");
        assertTrue(verifier.trust().learn(rotation(OLD, NEW, 1)).isEmpty(), "a known record is skipped");
    }

    @Test
    void chainsAreFollowedInAnyOrderUpToTheBound() {
        ProviderTrust trust = ProviderTrust.of(Set.of(OLD.publicKey()));
        trust.learn(rotation(NEW, NEWER, 2).with(rotation(OLD, NEW, 1)));
        assertTrue(trust.trusts(NEWER.publicKey()));

        ProviderTrust bounded = ProviderTrust.of(Set.of(OLD.publicKey()));
        List<KeyRotation> chain = new ArrayList<>();
        SigningKey from = OLD;
        for (int i = 1; i <= ProviderTrust.MAX_CHAIN + 1; i++) {
            SigningKey to = Samples.key(100 + i);
            chain.add(KeyRotation.sign(from, to.publicKey(), i, T));
            from = to;
        }
        List<Verification> verdicts = bounded.learn(new KeyRecords(chain, List.of()));
        assertFalse(verdicts.get(verdicts.size() - 1).ok(), "one rotation too many");
        assertFalse(bounded.trusts(from.publicKey()));
        assertTrue(bounded.trusts(Samples.key(100 + ProviderTrust.MAX_CHAIN).publicKey()));
    }

    @Test
    void forgedAndStrangersRecordsAreRefusedAndCounted() {
        ProviderTrust trust = ProviderTrust.of(Set.of(OLD.publicKey()));
        KeyRotation genuine = KeyRotation.sign(OLD, NEW.publicKey(), 1, T);
        KeyRotation forged = new KeyRotation(OLD.publicKey(), STRANGER.publicKey(), 1, T, genuine.signature());
        List<Verification> verdicts = trust.learn(new KeyRecords(List.of(forged), List.of()));
        assertEquals(RejectReason.BAD_SIGNATURE, verdicts.get(0).rejectReason().orElseThrow());
        assertEquals(1, trust.forged());
        assertFalse(trust.trusts(STRANGER.publicKey()));

        verdicts = trust.learn(rotation(STRANGER, NEWER, 1));
        assertEquals(RejectReason.UNTRUSTED_PROVIDER, verdicts.get(0).rejectReason().orElseThrow());
        assertFalse(trust.trusts(NEWER.publicKey()));

        verdicts = trust.learn(revocation(STRANGER, OLD, T));
        assertEquals(RejectReason.UNTRUSTED_PROVIDER, verdicts.get(0).rejectReason().orElseThrow(), "no standing");
        assertTrue(trust.trusts(OLD.publicKey()));
        assertEquals(2, trust.unknownSigners());
    }

    @Test
    void aRevokedKeysObjectsAreRefusedButItsCertifiedSuccessorStays() {
        ObjectVerifier verifier = new ObjectVerifier(ProviderTrust.of(Set.of(OLD.publicKey())), new VersionFloor(16), 1 << 20,
                new io.riptide.core.crypto.VerifiedSignatures());
        List<KeyRevocation> heard = new ArrayList<>();
        verifier.trust().onRevoked(heard::add);
        verifier.trust().learn(rotation(OLD, NEW, 1));
        assertTrue(verifier.verify(object(OLD, 1), guid(OLD)).ok());

        verifier.trust().learn(revocation(OLD, OLD, T + 100));
        Verification refused = verifier.verify(object(OLD, 2), guid(OLD));
        assertEquals(RejectReason.REVOKED_KEY, refused.rejectReason().orElseThrow());
        assertTrue(refused.message().contains("revoked"), refused.message());
        assertEquals(1, heard.size());
        assertTrue(verifier.verify(object(NEW, 1), guid(NEW)).ok(), "the successor was certified before the revocation");
        assertFalse(verifier.trust().trusts(OLD.publicKey()), "a revocation outweighs the configuration");

        // A rotation the revoked key signs afterwards (a thief's) is refused.
        verifier.trust().learn(new KeyRecords(List.of(KeyRotation.sign(OLD, STRANGER.publicKey(), 2, T + 200)), List.of()));
        assertFalse(verifier.trust().trusts(STRANGER.publicKey()));
    }

    @Test
    void aCertifierMayRevokeItsSuccessorButNotTheOtherWayRound() {
        ProviderTrust trust = ProviderTrust.of(Set.of(OLD.publicKey()));
        trust.learn(rotation(OLD, NEW, 1));
        List<Verification> verdicts = trust.learn(revocation(NEW, OLD, T));
        assertEquals(RejectReason.UNTRUSTED_PROVIDER, verdicts.get(0).rejectReason().orElseThrow());
        assertFalse(trust.isRevoked(OLD.publicKey()));

        assertTrue(trust.learn(revocation(OLD, NEW, T)).get(0).ok());
        assertTrue(trust.isRevoked(NEW.publicKey()));
        assertTrue(trust.trusts(OLD.publicKey()));
    }

    @Test
    void aNodeTakesARevocationDownTheTreeAndThenRefusesTheRevokedKeysVersions() {
        VersionFloor floor = new VersionFloor(16);
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(floor, 1 << 20);
        assertTrue(check.admits(guid(OLD), CachedCopy.of(object(OLD, 1)).toBytes()));

        assertFalse(check.admits(guid(OLD), rotation(OLD, NEW, 1).toBytes()), "a bundle that revokes nothing is refused");
        KeyRevocation forged = new KeyRevocation(OLD.publicKey(), OLD.publicKey(), T,
                KeyRevocation.sign(OLD, OLD.publicKey(), T + 1).signature());
        assertFalse(check.admits(guid(OLD), new KeyRecords(List.of(), List.of(forged)).toBytes()));
        assertEquals(2, check.keyRecordsRefused());
        assertEquals(1, check.keys().forged());

        assertTrue(check.admits(guid(OLD), rotation(OLD, NEW, 1).with(revocation(OLD, OLD, T)).toBytes()));
        assertEquals(1, check.keyRecordsAccepted());
        assertFalse(check.admits(guid(OLD), CachedCopy.of(object(OLD, 5)).toBytes()));
        assertEquals(RejectReason.REVOKED_KEY, check.lastRefusal().orElseThrow().rejectReason().orElseThrow());
        assertEquals(1, check.revokedRefused());
        assertTrue(check.admits(guid(NEW), CachedCopy.of(object(NEW, 1)).toBytes()), "the new key's objects pass");

        assertEquals(OLD.publicKey(), ReplicaUpdateCheck.signer(CachedCopy.of(object(OLD, 1)).toBytes()).orElseThrow());
        assertTrue(ReplicaUpdateCheck.signer("junk".getBytes()).isEmpty());
    }

    /** Message checks without a dependency. */
    private static final class IOExceptionMessage {
        static void assertContains(Exception e, String part) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }
}
