package io.riptide.cli;

import io.riptide.core.crypto.SigningKey;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code riptide keygen --out FILE [--rotate OLD]}: makes a node's or provider's Ed25519 key and prints the
 * node ID it gives; with {@code --rotate}, also the certificate in which the old provider key vouches for it.
 */
@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = {"Generates an Ed25519 key pair for a node or a provider.",
            "Saves it (owner-readable only) and prints the node ID it gives.",
            "With --rotate, the new key succeeds a provider key: the old key signs a",
            "certificate for it, which the gateway publishes (--key-certificate), so",
            "proxies that trust the old key come to trust the new one."},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide keygen --out /var/lib/riptide/node.key",
            "  riptide keygen --rotate provider.key --out provider-2.key"})
final class KeygenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the key (required).")
    private Path out;

    @Option(names = "--rotate", paramLabel = "OLD_KEY_FILE",
            description = "Make a successor of this provider key: write the new key to --out and a rotation certificate, "
                + "signed by the old key, to --certificate. A certificate beside the old key (OLD_KEY_FILE.cert) is "
                + "carried on, so a chain of rotations stays trusted (default: no rotation).")
    private Path rotate;

    @Option(names = "--certificate", paramLabel = "FILE",
            description = "Where --rotate writes the certificate (default: the --out file with .cert appended).")
    private Path certificate;

    @Option(names = "--force", description = "Overwrite FILE if it exists; the old identity is lost (default: off).")
    private boolean force;

    @Override
    public Integer call() throws Exception {
        // A node's key is its identity; replacing one by accident would orphan everything it signed.
        if (Files.exists(out) && !force) {
            throw new ParameterException(spec.commandLine(), out + " already exists; use --force to replace it");
        }
        if (certificate != null && rotate == null) {
            throw new ParameterException(spec.commandLine(), "--certificate needs --rotate OLD_KEY_FILE");
        }
        KeyRotations rotation = null;
        if (rotate != null) {
            rotation = KeyRotations.prepare(rotate, out, certificate, force, spec.commandLine());
        }
        SigningKey key = SigningKey.generate(new SecureRandom());
        key.save(out);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println("Wrote key to " + out.toAbsolutePath().normalize());
        stdout.println("Node ID: " + key.publicKey().nodeId());
        stdout.println("Public key: " + key.publicKey() + " (give this to proxies or gateways that must trust it)");
        if (rotation != null) {
            rotation.certify(key, out, spec.commandLine(), stdout);
        }
        stdout.flush();
        return 0;
    }
}
