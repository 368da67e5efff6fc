package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A bundle of provider key records: rotation certificates and revocations, each signed on its own,
 * so whoever carries or stores the bundle need not be trusted. It is what a gateway keeps at each
 * provider key's well-known {@link ObjectNames#keyRecordsGuid} GUID, and what it sends down the
 * dissemination trees of the objects a revoked key signed, in place of their replicas (a node that
 * checks it drops the replica and keeps the bundle, so every later reader learns the revocation).
 *
 * <p>Stored layout: {@code u8 kind (0x4B, 'K') | u8 format (1) | list≤1024<bytes rotation> |
 * list≤1024<bytes revocation>}. A {@link CachedCopy} begins with its format byte (1) and a
 * {@link VariantRecord} with 0x56, so the first byte tells them apart ({@link #isKeyRecords}). The
 * file form ({@link #save}, {@link #load}) is one {@code rotation: BASE64} or {@code revocation:
 * BASE64} line per record.
 */
public record KeyRecords(List<KeyRotation> rotations, List<KeyRevocation> revocations) {
    /** The first byte of the stored form. */
    public static final int KIND = 0x4B;
    /** Version of the stored layout. */
    public static final int FORMAT = 1;
    /** Most records of each kind in one bundle. */
    public static final int MAX_RECORDS = 1024;
    /** No records. */
    public static final KeyRecords EMPTY = new KeyRecords(List.of(), List.of());
    private static final String ROTATION_LABEL = "rotation: ";
    private static final String REVOCATION_LABEL = "revocation: ";

    public KeyRecords {
        rotations = List.copyOf(new LinkedHashSet<>(rotations));
        revocations = List.copyOf(new LinkedHashSet<>(revocations));
        if (rotations.size() > MAX_RECORDS || revocations.size() > MAX_RECORDS) {
            throw new IllegalArgumentException("at most " + MAX_RECORDS + " records of each kind in a bundle");
        }
    }

    /** This bundle and {@code other}'s records, each once. */
    public KeyRecords with(KeyRecords other) {
        List<KeyRotation> r = new ArrayList<>(rotations);
        r.addAll(other.rotations);
        List<KeyRevocation> v = new ArrayList<>(revocations);
        v.addAll(other.revocations);
        return new KeyRecords(r, v);
    }

    /** Whether there is nothing in it. */
    public boolean isEmpty() {
        return rotations.isEmpty() && revocations.isEmpty();
    }

    /** Every key the bundle names (old and new keys, revoked keys), each once. */
    public List<PublicKey> keys() {
        LinkedHashSet<PublicKey> keys = new LinkedHashSet<>();
        rotations.forEach(r -> {
            keys.add(r.oldKey());
            keys.add(r.newKey());
        });
        revocations.forEach(v -> keys.add(v.revokedKey()));
        return List.copyOf(keys);
    }

    /** Whether {@code data} is (or claims to be) a key-record bundle: by its first byte alone. */
    public static boolean isKeyRecords(byte[] data) {
        return data != null && data.length > 0 && (data[0] & 0xff) == KIND;
    }

    /** The stored form (layout in the class comment). */
    public byte[] toBytes() {
        return Encoding.write(256, out -> out.u8(KIND).u8(FORMAT)
                .list(rotations, (w, r) -> w.bytes(r.toBytes()))
                .list(revocations, (w, v) -> w.bytes(v.toBytes())));
    }

    /** Reads the stored form; anything else (signatures apart: see {@link ProviderTrust}) is refused. */
    public static KeyRecords fromBytes(byte[] data) throws ObjectFormatException {
        return Encoding.read(data, "key records", in -> {
            if (in.u8() != KIND) {
                throw new io.riptide.core.wire.WireException("not key records");
            }
            Encoding.formatVersion(in, FORMAT, "key records");
            List<byte[]> r = in.list(MAX_RECORDS, w -> w.bytes(256));
            List<byte[]> v = in.list(MAX_RECORDS, w -> w.bytes(256));
            try {
                List<KeyRotation> rotations = new ArrayList<>();
                for (byte[] each : r) {
                    rotations.add(KeyRotation.fromBytes(each));
                }
                List<KeyRevocation> revocations = new ArrayList<>();
                for (byte[] each : v) {
                    revocations.add(KeyRevocation.fromBytes(each));
                }
                return new KeyRecords(rotations, revocations);
            } catch (ObjectFormatException e) {
                throw new io.riptide.core.wire.WireException(e.getMessage());
            }
        });
    }

    /** Writes the file form to {@code file}, with a comment saying what it is. Records are public: no secret here. */
    public void save(Path file, String comment) throws IOException {
        StringBuilder text = new StringBuilder("# Riptide provider key records. " + comment + "\n");
        rotations.forEach(r -> text.append(ROTATION_LABEL).append(Base64.getEncoder().encodeToString(r.toBytes()))
                .append("  # ").append(r.oldKey()).append(" -> ").append(r.newKey()).append('\n'));
        revocations.forEach(v -> text.append(REVOCATION_LABEL).append(Base64.getEncoder().encodeToString(v.toBytes()))
                .append("  # revokes ").append(v.revokedKey()).append('\n'));
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Reads the file form; the error names the file and line that is wrong. */
    public static KeyRecords load(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<KeyRotation> rotations = new ArrayList<>();
        List<KeyRevocation> revocations = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            line = (hash >= 0 ? line.substring(0, hash) : line).strip();
            String where = file + ":" + (i + 1) + ": ";
            if (line.isEmpty()) {
                continue;
            }
            try {
                if (line.startsWith(ROTATION_LABEL)) {
                    rotations.add(KeyRotation.fromBytes(Base64.getDecoder().decode(line.substring(ROTATION_LABEL.length()).strip())));
                } else if (line.startsWith(REVOCATION_LABEL)) {
                    revocations.add(KeyRevocation.fromBytes(
                            Base64.getDecoder().decode(line.substring(REVOCATION_LABEL.length()).strip())));
                } else {
                    throw new IOException(where + "expected 'rotation: ' or 'revocation: ', got '" + line + "'");
                }
            } catch (IllegalArgumentException e) {
                throw new IOException(where + "not valid base64", e);
            } catch (ObjectFormatException e) {
                throw new IOException(where + e.getMessage(), e);
            }
        }
        if (rotations.isEmpty() && revocations.isEmpty()) {
            throw new IOException(file + ": no 'rotation: ' or 'revocation: ' line; is this a Riptide key certificate?");
        }
        return new KeyRecords(rotations, revocations);
    }
}
