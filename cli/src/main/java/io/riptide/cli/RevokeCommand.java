package io.riptide.cli;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.KeyRotation;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code riptide revoke --key KEY [--by CERTIFIER --certificate FILE] [--admin HOST:PORT]}: signs a
 * provider key's revocation and has the gateway on this machine publish it.
 */
@Command(name = "revoke", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Revokes a provider key, through the gateway on this machine.",
            "The revocation is signed by the key itself, or (--by) by the key that",
            "certified it in a rotation. The gateway publishes it where proxies read",
            "the provider's key records and sends it down the dissemination tree of",
            "every object the key signed: replicas drop those objects, and proxies and",
            "nodes refuse whatever the key signed from then on. It cannot be undone.",
            "The gateway must run with --admin-port; run this on each of its gateways."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:revoked (or already revoked)",
            "1:not revoked: no gateway answered, or it refused the revocation (the message says why)",
            "2:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide revoke --key /var/lib/riptide/provider.key",
            "  riptide revoke --key ed25519:... --by old.key --certificate new.key.cert"})
final class RevokeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--key", paramLabel = "KEY", required = true,
            description = "The key to revoke: its key file (it then signs its own revocation), or with --by its "
                + "public key as ed25519:BASE64 (required).")
    private String key;

    @Option(names = "--by", paramLabel = "FILE",
            description = "Sign with this key file instead: the key that certified --key in a rotation (for a key whose "
                + "private half is lost). A successor cannot revoke the key it succeeds (default: --key signs itself).")
    private Path by;

    @Option(names = "--certificate", paramLabel = "FILE",
            description = "With --by: the certificate holding the rotation from --by to --key (keygen --rotate wrote it), "
                + "sent along so that nodes can check --by's standing (default: none).")
    private Path certificate;

    @Option(names = "--out", paramLabel = "FILE",
            description = "Also write the signed revocation here, to keep or to hand to other tools (default: not written).")
    private Path out;

    @Option(names = "--admin", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + AdminOptions.DEFAULT_PORT,
            description = "The gateway's admin server (its --admin-port), on this machine (default: ${DEFAULT-VALUE}).")
    private String admin;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How long to wait for the gateway's answer, e.g. 5s (default: ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Override
    public Integer call() throws InterruptedException {
        AdminPost gateway = AdminPost.to("revoke", admin, timeout, spec.commandLine());
        KeyRecords records = records();
        if (out != null) {
            try {
                records.save(out, "A signed revocation: public, final.");
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "--out: cannot write " + out + " (" + e.getMessage() + ")");
            }
        }
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println("Signed the revocation of " + records.revocations().get(0).revokedKey());
        stdout.flush();
        String encoded = Base64.getUrlEncoder().withoutPadding().encodeToString(records.toBytes());
        return gateway.post("/revoke?records=" + encoded, "the revocation may still be published", stdout,
                spec.commandLine().getErr());
    }

    private KeyRecords records() {
        long now = System.currentTimeMillis();
        if (by == null) {
            if (certificate != null) {
                throw new ParameterException(spec.commandLine(), "--certificate goes with --by");
            }
            if (key.startsWith("ed25519:")) {
                throw new ParameterException(spec.commandLine(), "--key: a public key cannot sign its own revocation; give "
                        + "its key file, or sign with the key that certified it (--by FILE --certificate FILE)");
            }
            SigningKey self = KeyFiles.load(Path.of(key), "--key", spec.commandLine());
            return new KeyRecords(List.of(), List.of(KeyRevocation.sign(self, self.publicKey(), now)));
        }
        PublicKey revoked = KeyFiles.publicKey(key, "--key", spec.commandLine());
        SigningKey signer = KeyFiles.load(by, "--by", spec.commandLine());
        if (signer.publicKey().equals(revoked)) {
            throw new ParameterException(spec.commandLine(), "--by is the key being revoked; leave --by out");
        }
        List<KeyRotation> standing = List.of();
        if (certificate != null) {
            try {
                standing = KeyRecords.load(certificate).rotations().stream()
                        .filter(r -> r.oldKey().equals(signer.publicKey()) && r.newKey().equals(revoked)).toList();
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(), "--certificate: " + e.getMessage());
            }
            if (standing.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--certificate: " + certificate + " holds no rotation from "
                        + signer.publicKey() + " (--by) to " + revoked + " (--key): only the key that certified a key may "
                        + "revoke it");
            }
        }
        return new KeyRecords(standing, List.of(KeyRevocation.sign(signer, revoked, now)));
    }
}
