package io.riptide.gateway.keys;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.KeyRotation;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ProviderTrust;
import io.riptide.core.object.ReplicaUpdateCheck;
import io.riptide.core.object.Verification;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.dissemination.TreeView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * A gateway's provider key records: the rotation certificates that lead to the key it signs with
 * (given at start, {@code --key-certificate}) and the revocations its operator hands it
 * ({@code riptide revoke}). It keeps them, as one {@link KeyRecords} bundle, at the well-known
 * {@link ObjectNames#keyRecordsGuid} GUID of every key they name, where proxies read them, and stores
 * them again every {@link #REPUBLISH} (a replica may be evicted). A revocation also goes down the
 * dissemination tree of every object this gateway roots that the revoked key signed, in place of the
 * object, so every replica drops it and every reader of it learns the revocation.
 *
 * <p>Records are public and each is signed on its own: the gateway checks them
 * ({@link ProviderTrust#open()}: a revocation signed by the revoked key or by the key that certified
 * it) and takes only those of its own provider's keys (its key and those its certificates name). On
 * the node's loop.
 */
public final class KeyPublisher {
    /** How often the bundle is stored again at the key-records GUIDs. */
    public static final Duration REPUBLISH = Duration.ofMinutes(10);

    private final OverlayNode node;
    private final PublicKey own;
    private final ProviderTrust records = ProviderTrust.open();
    private long treesRevoked;
    private boolean started;
    private boolean republishing;

    /**
     * A publisher for the gateway signing with {@code own}, holding {@code certificate}: rotations whose
     * chain must end at {@code own} (or none).
     *
     * @throws IllegalArgumentException if a rotation's signature is not valid, or none certifies {@code own}
     */
    public KeyPublisher(OverlayNode node, PublicKey own, KeyRecords certificate) {
        this.node = node;
        this.own = own;
        for (KeyRotation r : certificate.rotations()) {
            if (!r.signatureValid()) {
                throw new IllegalArgumentException("the rotation " + r.oldKey() + " -> " + r.newKey()
                        + " does not carry the old key's signature");
            }
        }
        if (!certificate.rotations().isEmpty() && certificate.rotations().stream().noneMatch(r -> r.newKey().equals(own))) {
            throw new IllegalArgumentException("the key certificate does not certify this gateway's key " + own
                    + ": it certifies " + certificate.rotations().stream().map(KeyRotation::newKey).toList());
        }
        for (Verification v : records.learn(certificate)) {
            if (!v.ok()) {
                throw new IllegalArgumentException(v.message());
            }
        }
    }

    /** The keys this gateway's key descends from by rotation (whose proxies it also serves), nearest first. */
    public List<PublicKey> predecessors() {
        List<PublicKey> out = new ArrayList<>();
        PublicKey at = own;
        List<KeyRotation> all = records.records().rotations();
        for (int i = 0; i < ProviderTrust.MAX_CHAIN; i++) {
            PublicKey current = at;
            PublicKey previous = all.stream().filter(r -> r.newKey().equals(current)).map(KeyRotation::oldKey)
                    .filter(k -> !out.contains(k) && !k.equals(own)).findFirst().orElse(null);
            if (previous == null) {
                break;
            }
            out.add(previous);
            at = previous;
        }
        return out;
    }

    /** Stores the bundle now and every {@link #REPUBLISH}, once there is one. */
    public void start() {
        started = true;
        publish();
        republishIfAny();
    }

    // Only a gateway with records schedules anything: the periodic timer draws from the node's random
    // source, and a gateway without records must not change what a seeded simulation does.
    private void republishIfAny() {
        if (started && !republishing && !records.records().isEmpty()) {
            republishing = true;
            node.env().periodic(REPUBLISH, this::publish);
        }
    }

    /** Stores the bundle at the key-records GUID of every key it names (nothing when there are no records). */
    public void publish() {
        KeyRecords bundle = records.records();
        if (bundle.isEmpty()) {
            return;
        }
        byte[] bytes = bundle.toBytes();
        Set<PublicKey> keys = new LinkedHashSet<>(bundle.keys());
        keys.add(own);
        for (PublicKey key : keys) {
            node.storeReplica(ObjectNames.keyRecordsGuid(key), bytes);
        }
    }

    /** Everything this gateway holds: its certificates and the revocations it was given. */
    public KeyRecords records() {
        return records.records();
    }

    /** Trees this gateway sent a revocation down. */
    public long treesRevoked() {
        return treesRevoked;
    }

    /**
     * Checks {@code offered} (one revocation, with the rotation that gives its signer standing if the
     * signer is not the revoked key) and, if it holds, publishes it: at the key-records GUIDs, in this
     * node's store, and down the tree of each object rooted here that the revoked key signed.
     */
    public void revoke(KeyRecords offered, Consumer<RevokeResult> done) {
        if (offered.revocations().size() != 1) {
            done.accept(refused("give exactly one revocation, not " + offered.revocations().size()));
            return;
        }
        KeyRevocation revocation = offered.revocations().get(0);
        PublicKey key = revocation.revokedKey();
        Set<PublicKey> ours = new LinkedHashSet<>(records.records().keys());
        ours.add(own);
        if (!ours.contains(key)) {
            done.accept(refused(key + " is not a key of this gateway's provider (it signs with " + own + ")"));
            return;
        }
        if (records.isRevoked(key)) {
            done.accept(new RevokeResult(RevokeResult.Outcome.ALREADY_REVOKED, key + " was already revoked"));
            return;
        }
        List<Verification> verdicts = records.learn(offered);
        if (!records.isRevoked(key)) {
            done.accept(refused(verdicts.stream().filter(v -> !v.ok()).map(Verification::message).findFirst()
                    .orElse("the revocation does not verify")));
            return;
        }
        KeyRecords proof = records.proof(key);
        byte[] bytes = proof.toBytes();
        // Read the roots' replicas before the node learns the revocation: its sweep then replaces them.
        List<Id> rooted = new ArrayList<>();
        for (Id guid : node.trees(Integer.MAX_VALUE)) {
            TreeView view = node.treeOf(guid);
            if (view != null && view.root()) {
                rooted.add(guid);
            }
        }
        List<CompletableFuture<Boolean>> sent = new ArrayList<>();
        for (Id guid : rooted) {
            CompletableFuture<Boolean> one = new CompletableFuture<>();
            sent.add(one);
            node.replicas().get(guid).whenComplete((held, error) -> node.env().execute(() -> {
                boolean signed = held != null && (KeyRecords.isKeyRecords(held)
                        || ReplicaUpdateCheck.signer(held).map(key::equals).orElse(false));
                TreeView view = node.treeOf(guid);
                boolean published = signed && view != null
                        && node.publishUpdate(guid, bytes, Math.max(node.env().wallClockMillis(), view.stamp() + 1));
                if (published) {
                    treesRevoked++;
                }
                one.complete(published);
            }));
        }
        CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0])).whenComplete((ignored, error) -> node.env().execute(() -> {
            node.learnKeyRecords(proof);
            publish();
            republishIfAny();
            long trees = sent.stream().filter(f -> f.getNow(false)).count();
            String warning = key.equals(own) ? " WARNING: this gateway signs with the revoked key; restart it with a new key"
                    + " (riptide keygen --rotate) or everything it inserts is refused." : "";
            done.accept(new RevokeResult(RevokeResult.Outcome.REVOKED, key + " revoked: published at the key-records GUIDs"
                    + " and sent down " + trees + " dissemination tree(s) of objects it signed." + warning));
        }));
    }

    private static RevokeResult refused(String why) {
        return new RevokeResult(RevokeResult.Outcome.REFUSED, why);
    }
}
