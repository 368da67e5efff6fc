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

/** {@code riptide keygen --out FILE}: makes a node's Ed25519 key and prints the node ID it gives. */
@Command(name = "keygen", mixinStandardHelpOptions = true,
        description = {"Generates an Ed25519 key pair for a node or a provider.",
            "Saves it (owner-readable only) and prints the node ID it gives."},
        footerHeading = "%nExample:%n",
        footer = "  riptide keygen --out /var/lib/riptide/node.key")
final class KeygenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the key (required).")
    private Path out;

    @Option(names = "--force", description = "Overwrite FILE if it exists; the old identity is lost (default: off).")
    private boolean force;

    @Override
    public Integer call() throws Exception {
        // A node's key is its identity; replacing one by accident would orphan everything it signed.
        if (Files.exists(out) && !force) {
            throw new ParameterException(spec.commandLine(), out + " already exists; use --force to replace it");
        }
        SigningKey key = SigningKey.generate(new SecureRandom());
        key.save(out);
        PrintWriter stdout = spec.commandLine().getOut();
        stdout.println("Wrote key to " + out.toAbsolutePath().normalize());
        stdout.println("Node ID: " + key.publicKey().nodeId());
        stdout.println("Public key: " + key.publicKey() + " (give this to proxies or gateways that must trust it)");
        stdout.flush();
        return 0;
    }
}
