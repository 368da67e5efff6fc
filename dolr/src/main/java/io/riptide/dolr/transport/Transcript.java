package io.riptide.dolr.transport;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a side signs to prove its key: a label, the link's wire version (from version 9 on), both
 * roles, both {@link Hello}s (nonces and ephemeral keys), the key and the address it advertises. Both nonces make a proof good for this
 * connection only; the roles stop a peer from replaying our own proof back at us; the address can't
 * be swapped by a relay, and neither can an ephemeral key: the link's keys are agreed from those two
 * keys, so a relay that put its own in a Hello would fail both proofs.
 *
 * <p>A link at version 8 signs the previous release's transcript, label {@code .../v2}, which a
 * version-8 node checks; the versions both sides offered are in it all the same, inside the nonces
 * ({@link VersionOffer}). From version 9 the label is {@code .../v3} and the version the signer
 * chose follows it, so the two ends also prove they agreed on it.
 */
final class Transcript {
    private static final String LABEL_V8 = "riptide/transport/handshake/v2";
    private static final String LABEL = "riptide/transport/handshake/v3";

    private Transcript() {
    }

    /**
     * What {@code signer}, playing {@code role}, signs for a link at wire version {@code version},
     * {@code client} and {@code server} being the two Hellos.
     */
    static byte[] of(int version, Role role, Hello client, Hello server, PublicKey signer, NodeAddress address) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (version == Frames.OLDEST_VERSION) {
                out.write(LABEL_V8.getBytes(StandardCharsets.UTF_8));
            } else {
                out.write(LABEL.getBytes(StandardCharsets.UTF_8));
                out.writeByte(version);
            }
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
