package io.riptide.core.object;

import static io.riptide.core.object.RejectReason.BAD_SIGNATURE;
import static io.riptide.core.object.RejectReason.REVOKED_KEY;
import static io.riptide.core.object.RejectReason.UNTRUSTED_PROVIDER;

import io.riptide.core.crypto.PublicKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Which provider keys a verifier trusts now: the configured ones (the roots), the keys they certified
 * by {@link KeyRotation} (chains allowed, at most {@link #MAX_CHAIN} rotations from a root), minus
 * every key revoked ({@link KeyRevocation}), roots included. Records are learned from
 * {@link KeyRecords} bundles whoever carried them; each is checked on its own and a forged one
 * (bad signature) or one from a signer with no standing is refused and counted.
 *
 * <p>The rules. <b>Rotation:</b> a key certified by a trusted key is trusted too, and the old key stays
 * trusted until it is revoked, so a rotation is no flag day. A rotation signed by a revoked key counts
 * only if it was issued before that revocation. <b>Revocation:</b> signed by the revoked key itself,
 * or by a key that certified it; a successor cannot revoke its predecessor, so a stolen new key cannot
 * cut the provider off from the keys its verifiers were configured with. A revocation is final: no
 * record or configuration trusts the key again in this process (or, where the records are persisted,
 * after a restart).
 *
 * <p>An <em>open</em> trust ({@link #open()}, overlay nodes') has no roots and trusts no provider: it
 * only records which keys are revoked, for a node that must drop their replicas. It takes any
 * self-signed revocation, and one by a certifier whose rotation it has seen.
 *
 * <p>Bounded: at most {@value #MAX_KEYS} rotations and as many revocations are remembered; past that
 * new ones are refused (and counted), never old ones forgotten. Thread-safe.
 */
public final class ProviderTrust {
    /** Most rotations between a root and a key it trusts through them. */
    public static final int MAX_CHAIN = 8;
    /** Most rotations, and most revocations, remembered. */
    public static final int MAX_KEYS = KeyRecords.MAX_RECORDS;

    private final Set<PublicKey> roots;
    private final boolean open;
    // Guarded by this. Learned keys with how many rotations they are from a root.
    private final Map<PublicKey, Integer> depth = new HashMap<>();
    // Every validly signed rotation seen (the proof of who certified whom), first seen first.
    private final Map<KeyRotation, Boolean> rotations = new LinkedHashMap<>();
    private final Map<PublicKey, KeyRevocation> revoked = new LinkedHashMap<>();
    private final List<Consumer<KeyRevocation>> listeners = new ArrayList<>();
    private long forged;
    private long unknownSigners;

    private ProviderTrust(Set<PublicKey> roots, boolean open) {
        this.roots = Set.copyOf(roots);
        this.open = open;
    }

    /** A trust in {@code roots} and whatever they certify, until revoked. */
    public static ProviderTrust of(Set<PublicKey> roots) {
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("a verifier needs at least one trusted provider");
        }
        return new ProviderTrust(roots, false);
    }

    /** A node's: trusts no provider, records revocations (see the class comment). */
    public static ProviderTrust open() {
        return new ProviderTrust(Set.of(), true);
    }

    /** Hears each revocation newly learned, outside the lock, on the learning thread. */
    public synchronized void onRevoked(Consumer<KeyRevocation> listener) {
        listeners.add(listener);
    }

    /** Whether objects signed by {@code key} may be accepted: a root or certified by one, and not revoked. */
    public synchronized boolean trusts(PublicKey key) {
        return !revoked.containsKey(key) && (roots.contains(key) || depth.containsKey(key));
    }

    /** Whether {@code key} has been revoked. */
    public synchronized boolean isRevoked(PublicKey key) {
        return revoked.containsKey(key);
    }

    /** The revocation of {@code key}, if learned. */
    public synchronized Optional<KeyRevocation> revocation(PublicKey key) {
        return Optional.ofNullable(revoked.get(key));
    }

    /** The keys trusted now, roots first (configured order is not kept: a set's), then learned ones. */
    public synchronized List<PublicKey> trusted() {
        List<PublicKey> out = new ArrayList<>();
        roots.stream().filter(k -> !revoked.containsKey(k)).forEach(out::add);
        depth.keySet().stream().filter(k -> !revoked.containsKey(k) && !roots.contains(k)).forEach(out::add);
        return out;
    }

    /**
     * Learns what {@code records} proves, rotations first (until no more can be used, so a chain may
     * come in any order), then revocations; returns one verdict per record that was new, refused ones
     * included. Known records are skipped silently: bundles are read again and again.
     */
    public List<Verification> learn(KeyRecords records) {
        List<Verification> verdicts = new ArrayList<>();
        List<KeyRevocation> fresh = new ArrayList<>();
        synchronized (this) {
            List<KeyRotation> pending = new ArrayList<>();
            for (KeyRotation r : records.rotations()) {
                if (!rotations.containsKey(r)) {
                    pending.add(r);
                }
            }
            boolean progress = true;
            while (progress && !pending.isEmpty()) {
                progress = false;
                for (var it = pending.iterator(); it.hasNext(); ) {
                    KeyRotation r = it.next();
                    if (open || usableCertifier(r)) {
                        verdicts.add(learnRotation(r));
                        it.remove();
                        progress = true;
                    }
                }
            }
            for (KeyRotation r : pending) {
                unknownSigners++;
                verdicts.add(Verification.rejected(UNTRUSTED_PROVIDER, r + " is signed by a key this verifier does not trust"
                        + (revoked.containsKey(r.oldKey()) ? " (revoked before it was issued)" : "")));
            }
            for (KeyRevocation v : records.revocations()) {
                KeyRevocation known = revoked.get(v.revokedKey());
                if (known != null) {
                    continue;
                }
                Verification verdict = learnRevocation(v);
                verdicts.add(verdict);
                if (verdict.ok()) {
                    fresh.add(v);
                }
            }
        }
        List<Consumer<KeyRevocation>> hear;
        synchronized (this) {
            hear = List.copyOf(listeners);
        }
        fresh.forEach(v -> hear.forEach(l -> l.accept(v)));
        return verdicts;
    }

    // Whether r's old key may certify now: trusted, or revoked only after r was issued (then trusted before).
    private boolean usableCertifier(KeyRotation r) {
        PublicKey old = r.oldKey();
        boolean known = roots.contains(old) || depth.containsKey(old);
        KeyRevocation gone = revoked.get(old);
        return known && (gone == null || r.issuedAtMillis() < gone.issuedAtMillis());
    }

    private Verification learnRotation(KeyRotation r) {
        if (!r.signatureValid()) {
            forged++;
            return Verification.rejected(BAD_SIGNATURE, r + " does not carry the old key's signature");
        }
        if (rotations.size() >= MAX_KEYS) {
            unknownSigners++;
            return Verification.rejected(UNTRUSTED_PROVIDER, r + " refused: " + MAX_KEYS + " rotations already known");
        }
        rotations.put(r, Boolean.TRUE);
        if (open) {
            return Verification.accepted(r + " recorded");
        }
        int d = roots.contains(r.oldKey()) ? 1 : depth.get(r.oldKey()) + 1;
        if (d > MAX_CHAIN) {
            return Verification.rejected(UNTRUSTED_PROVIDER, r + " is " + d + " rotations from a trusted key, more than "
                    + MAX_CHAIN);
        }
        if (!roots.contains(r.newKey())) {
            depth.merge(r.newKey(), d, Math::min);
        }
        return Verification.accepted(r + " verified: " + r.newKey() + " is trusted");
    }

    private Verification learnRevocation(KeyRevocation v) {
        if (!v.signatureValid()) {
            forged++;
            return Verification.rejected(BAD_SIGNATURE, v + " does not carry its signer's signature");
        }
        boolean certifier = rotations.keySet().stream()
                .anyMatch(r -> r.oldKey().equals(v.signer()) && r.newKey().equals(v.revokedKey()));
        if (!v.selfSigned() && !certifier) {
            unknownSigners++;
            return Verification.rejected(UNTRUSTED_PROVIDER, v + " is signed by a key that neither is the revoked key"
                    + " nor certified it");
        }
        if (!open && !roots.contains(v.revokedKey()) && !depth.containsKey(v.revokedKey())) {
            // Not a key of ours: nothing to refuse, and nothing an outsider may make us remember.
            unknownSigners++;
            return Verification.rejected(UNTRUSTED_PROVIDER, v + " revokes a key this verifier never trusted");
        }
        if (revoked.size() >= MAX_KEYS) {
            unknownSigners++;
            return Verification.rejected(UNTRUSTED_PROVIDER, v + " refused: " + MAX_KEYS + " revocations already known");
        }
        revoked.put(v.revokedKey(), v);
        return Verification.accepted(v + " verified: " + v.revokedKey() + " is revoked");
    }

    /** Everything learned, for persisting or passing on: the rotations seen and the revocations. */
    public synchronized KeyRecords records() {
        return new KeyRecords(new ArrayList<>(rotations.keySet()), new ArrayList<>(revoked.values()));
    }

    /**
     * What proves {@code revoked}'s revocation to someone who knows nothing: the revocation and, when a
     * certifier signed it, the rotation that gave the certifier standing. Empty if not revoked here.
     */
    public synchronized KeyRecords proof(PublicKey revoked) {
        KeyRevocation v = this.revoked.get(revoked);
        if (v == null) {
            return KeyRecords.EMPTY;
        }
        List<KeyRotation> standing = rotations.keySet().stream()
                .filter(r -> !v.selfSigned() && r.oldKey().equals(v.signer()) && r.newKey().equals(revoked)).limit(1).toList();
        return new KeyRecords(standing, List.of(v));
    }

    /** Records refused for a bad signature. */
    public synchronized long forged() {
        return forged;
    }

    /** Records refused for their signer's lack of standing (untrusted, a successor revoking, a stranger's key). */
    public synchronized long unknownSigners() {
        return unknownSigners;
    }

    /** Revocations learned. */
    public synchronized int revokedCount() {
        return revoked.size();
    }

    /** Keys learned through rotations (not counting roots). */
    public synchronized int learnedCount() {
        return depth.size();
    }

    /** The revoked keys, in the order learned. */
    public synchronized Set<PublicKey> revokedKeys() {
        return new HashSet<>(revoked.keySet());
    }
}
