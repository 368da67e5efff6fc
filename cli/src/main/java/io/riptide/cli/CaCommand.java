package io.riptide.cli;

import io.riptide.cli.errors.CommandFailure;
import io.riptide.proxy.tls.LocalCa;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide ca}: the local certificate authority for the proxy's HTTPS interception. */
@Command(name = "ca", mixinStandardHelpOptions = true,
        description = {"Manages the local certificate authority the browser proxy intercepts HTTPS with (riptide proxy --intercept)."})
final class CaCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() {
        return Riptide.missingCommand(spec);
    }

    /** {@code riptide ca init [--dir DIR] [--force]}: makes the CA and says how to trust it. */
    @Command(name = "init", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Makes a local certificate authority for riptide proxy --intercept, and prints how to trust it.",
                "Writes ca.pem (the certificate browsers must trust) and ca-key.pem (its private key, readable by you alone). "
                + "Whoever holds the key can impersonate any web site to a browser that trusts the certificate: keep it on this "
                + "machine, and make one CA per user."},
            footerHeading = "%nExamples:%n",
            footer = {"  riptide ca init", "  riptide ca init --dir /etc/riptide/ca --force"})
    static final class Init implements Callable<Integer> {
        @Spec
        private CommandSpec spec;

        @Option(names = "--dir", paramLabel = "DIR",
                description = "Where to write ca.pem and ca-key.pem; riptide proxy --ca-dir reads it (default: ~/.riptide/ca).")
        private Path dir;

        @Option(names = "--force",
                description = "Replace a CA already in DIR; browsers that trusted the old one must then trust the new one (default: off).")
        private boolean force;

        @Override
        public Integer call() {
            Path where = dir != null ? dir : LocalCa.defaultDirectory();
            LocalCa ca;
            try {
                ca = LocalCa.create(where, force);
            } catch (FileAlreadyExistsException e) {
                throw new ParameterException(spec.commandLine(), "a CA already exists in " + where
                        + ": riptide proxy --intercept uses it as it is; --force replaces it (then trust the new one again)");
            } catch (IOException e) {
                throw new CommandFailure("cannot write the CA to " + where + ": " + e.getMessage(), e);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.print(instructions(ca, dir != null));
            out.flush();
            return 0;
        }
    }

    /** What {@code ca init} prints: where the files are, and how each kind of client comes to trust the certificate. */
    static String instructions(LocalCa ca, boolean customDir) {
        Path cert = ca.certificateFile().toAbsolutePath().normalize();
        String proxy = customDir ? "riptide proxy --ca-dir " + ca.directory() + " --intercept HOSTS" : "riptide proxy --intercept HOSTS";
        return String.join("\n",
                "Made a local CA: " + ca.certificate().getSubjectX500Principal().getName(),
                "  certificate: " + cert + "  (trust this)",
                "  key:         " + ca.keyFile().toAbsolutePath().normalize() + "  (mode 0600; never share it)",
                "",
                "Trust the certificate where you browse, then run: " + proxy,
                "(HOSTS: a comma-separated list such as example.org,*.example.net, or all)",
                "",
                "Chromium and Chrome on Linux (certutil is in the libnss3-tools package; restart the browser after):",
                "  certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n riptide -i " + cert,
                "Firefox: Settings > Privacy & Security > Certificates > View Certificates > Authorities > Import, choose",
                "  " + cert + " and tick \"Trust this CA to identify websites\"; or, for every profile, a policies.json with",
                "  {\"policies\": {\"Certificates\": {\"Install\": [\"" + cert + "\"]}}}",
                "The system store (curl, and Chrome on macOS and Windows):",
                "  Debian/Ubuntu: sudo cp " + cert + " /usr/local/share/ca-certificates/riptide.crt && sudo update-ca-certificates",
                "  macOS:         sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain " + cert,
                "  Windows:       certutil -addstore -f ROOT " + cert,
                "",
                "To stop trusting it: certutil -d sql:$HOME/.pki/nssdb -D -n riptide, remove it from Firefox's Authorities,",
                "or delete riptide.crt and run sudo update-ca-certificates --fresh.",
                "");
    }
}
