package io.riptide.cli;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRotation;
import io.riptide.core.object.ProviderTrust;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@code keygen --rotate}'s work: the old provider key signs a {@link KeyRotation} for the new key,
 * written with the chain that led to the old key (its own certificate, {@code OLD.cert}, if there is
 * one) as one certificate file, which the gateway is then given ({@code --key-certificate}).
 */
final class KeyRotations {
    /** What a certificate beside a key file is called: the key file's name with this appended. */
    static final String SUFFIX = ".cert";

    private final SigningKey old;
    private final List<KeyRotation> chain;
    private final Path certificate;

    private KeyRotations(SigningKey old, List<KeyRotation> chain, Path certificate) {
        this.old = old;
        this.chain = chain;
        this.certificate = certificate;
    }

    /** Checks everything before any file is written: the old key loads, its chain reads, the certificate may be written. */
    static KeyRotations prepare(Path oldFile, Path out, Path certificate, boolean force, CommandLine cl) {
        SigningKey old = KeyFiles.load(oldFile, "--rotate", cl);
        Path cert = certificate != null ? certificate : out.resolveSibling(out.getFileName() + SUFFIX);
        if (Files.exists(cert) && !force) {
            throw new ParameterException(cl, cert + " already exists; use --force to replace it");
        }
        if (cert.toAbsolutePath().normalize().equals(out.toAbsolutePath().normalize())) {
            throw new ParameterException(cl, "--certificate must not be the --out key file");
        }
        List<KeyRotation> chain = new ArrayList<>();
        Path oldCert = oldFile.resolveSibling(oldFile.getFileName() + SUFFIX);
        if (Files.exists(oldCert)) {
            try {
                chain.addAll(KeyRecords.load(oldCert).rotations());
            } catch (IOException e) {
                throw new ParameterException(cl, "--rotate: the old key's certificate " + oldCert + " cannot be read ("
                        + e.getMessage() + "); move it away to start a new chain");
            }
            if (chain.stream().noneMatch(r -> r.newKey().equals(old.publicKey()))) {
                throw new ParameterException(cl, "--rotate: " + oldCert + " does not certify the key in " + oldFile);
            }
            if (chain.size() >= ProviderTrust.MAX_CHAIN) {
                throw new ParameterException(cl, "--rotate: the chain in " + oldCert + " already holds " + chain.size()
                        + " rotations; verifiers follow at most " + ProviderTrust.MAX_CHAIN + ". Configure proxies with a"
                        + " newer key and start a new chain (move " + oldCert + " away)");
            }
        }
        return new KeyRotations(old, chain, cert);
    }

    /** Signs the rotation to {@code key}, writes the certificate and says what to do with it. */
    void certify(SigningKey key, Path keyFile, CommandLine cl, PrintWriter out) {
        long serial = chain.size() + 1;
        List<KeyRotation> all = new ArrayList<>(chain);
        all.add(KeyRotation.sign(old, key.publicKey(), serial, System.currentTimeMillis()));
        try {
            new KeyRecords(all, List.of()).save(certificate, "Public: give it to the gateways with --key-certificate.");
        } catch (IOException e) {
            throw new ParameterException(cl, "--certificate: cannot write " + certificate + " (" + e.getMessage() + ")");
        }
        out.println("Wrote rotation certificate to " + certificate.toAbsolutePath().normalize() + ": " + old.publicKey()
                + " vouches for the new key (rotation " + serial + ")");
        out.println("Next: restart every gateway with --key " + keyFile + " --key-certificate " + certificate
                + "; proxies that trust the old key then trust the new one too.");
        out.println("The old key keeps working until you revoke it (riptide revoke --key OLD_KEY_FILE).");
    }
}
