package io.riptide.dolr.transport;

// Main's version-8 handshake (commit e2982c0), frozen for the compatibility tests so that a node of
// this build is tested against the code deployed nodes run. Changed only: class names (V8 prefix),
// the frame version written and expected spelled out (8), and the version in PeerAuthenticated.

import io.riptide.core.crypto.Hkdf;
import io.riptide.core.crypto.PublicKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A link's two keys, one per direction, agreed in the handshake: HKDF-SHA256 (RFC 5869) of the
 * X25519 secret the two ephemeral keys share, salted with the SHA-256 of the connection's context
 * (both {@link V8Hello}s and both proven node keys), expanded once for each direction.
 *
 * <p>The Hellos make the keys this connection's alone. The node keys bind them to the two
 * identities: a relay that passed one side's V8Hello on but put its own proof in place of the other
 * side's (it can sign a transcript for its own key) would leave the two ends with different keys,
 * so that not one frame of either is accepted by the other.
 */
final class V8LinkKeys {
    /** Bytes in each key: AES-256. */
    static final int KEY_BYTES = 32;
    private static final byte[] CONTEXT_LABEL = "riptide/transport/keys/v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] CLIENT_TO_SERVER = "riptide/transport/keys/v1 client to server".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SERVER_TO_CLIENT = "riptide/transport/keys/v1 server to client".getBytes(StandardCharsets.UTF_8);

    private final byte[] sending;
    private final byte[] receiving;

    private V8LinkKeys(byte[] sending, byte[] receiving) {
        this.sending = sending;
        this.receiving = receiving;
    }

    /**
     * The keys of the side playing {@code role}, from the {@code secret} the ephemeral keys agreed,
     * the two Hellos and the two sides' node keys.
     */
    static V8LinkKeys derive(Role role, byte[] secret, V8Hello client, V8Hello server, PublicKey clientKey, PublicKey serverKey) {
        byte[] salt = context(client, server, clientKey, serverKey);
        byte[] clientToServer = Hkdf.sha256(salt, secret, CLIENT_TO_SERVER, KEY_BYTES);
        byte[] serverToClient = Hkdf.sha256(salt, secret, SERVER_TO_CLIENT, KEY_BYTES);
        return role == Role.CLIENT ? new V8LinkKeys(clientToServer, serverToClient) : new V8LinkKeys(serverToClient, clientToServer);
    }

    private static byte[] context(V8Hello client, V8Hello server, PublicKey clientKey, PublicKey serverKey) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        sha256.update(CONTEXT_LABEL);
        sha256.update(client.nonce());
        sha256.update(server.nonce());
        sha256.update(client.ephemeralKey());
        sha256.update(server.ephemeralKey());
        sha256.update(clientKey.toBytes());
        sha256.update(serverKey.toBytes());
        return sha256.digest();
    }

    /** The key this side seals its frames with. */
    byte[] sending() {
        return sending.clone();
    }

    /** The key this side opens the peer's frames with. */
    byte[] receiving() {
        return receiving.clone();
    }
}
