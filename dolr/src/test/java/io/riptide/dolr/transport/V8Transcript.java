package io.riptide.dolr.transport;

// Main's version-8 handshake (commit e2982c0), frozen for the compatibility tests so that a node of
// this build is tested against the code deployed nodes run. Changed only: class names (V8 prefix),
// the frame version written and expected spelled out (8), and the version in PeerAuthenticated.

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.runtime.NodeAddress;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a side signs to prove its key: a label, both roles, both {@link V8Hello}s (nonces and
 * ephemeral keys), the key and the address it advertises. Both nonces make a proof good for this
 * connection only; the roles stop a peer from replaying our own proof back at us; the address can't
 * be swapped by a relay, and neither can an ephemeral key: the link's keys are agreed from those two
 * keys, so a relay that put its own in a V8Hello would fail both proofs.
 */
final class V8Transcript {
    private static final String LABEL = "riptide/transport/handshake/v2";

    private V8Transcript() {
    }

    /** What {@code signer}, playing {@code role}, signs, {@code client} and {@code server} being the two Hellos. */
    static byte[] of(Role role, V8Hello client, V8Hello server, PublicKey signer, NodeAddress address) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(LABEL.getBytes(StandardCharsets.UTF_8));
            out.writeByte(role.code());
            out.writeByte(role.peer().code());
            out.write(client.nonce());
            out.write(server.nonce());
            out.write(client.ephemeralKey());
            out.write(server.ephemeralKey());
            out.write(signer.toBytes());
            byte[] host = address.host().getBytes(StandardCharsets.UTF_8);
            out.writeShort(host.length);
            out.write(host);
            out.writeInt(address.port());
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }
}
