package io.riptide.cli;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.discovery.Announcement.Role;
import io.riptide.dolr.discovery.MdnsInterface;
import io.riptide.dolr.server.NodeReport;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code riptide node --port P [--join HOST:PORT]}: runs one overlay node until stopped. */
@Command(name = "node", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs one overlay node: a routing and storage member of the Riptide overlay.",
            "Starts a new overlay, or joins one through --join, then prints a status line now and then. Stop it "
            + "with Ctrl-C or SIGTERM."},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide node --port 7101 --key /var/lib/riptide/node.key --join 10.0.0.1:7101",
            "  riptide node --config /etc/riptide/node.conf"})
final class NodeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private OverlayOptions overlay;

    @Mixin
    private AdminOptions admin;

    @Mixin
    private AnnounceOptions announce;

    @Option(names = "--key", paramLabel = "FILE",
            description = "The node's key, which fixes its node ID; created if the file is missing (default: a new key for this run only).")
    private Path keyFile;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        NodeAddress listen = overlay.listen();
        NodeAddress bootstrap = overlay.bootstrap();
        MdnsInterface mdns = announce.where(listen);
        SigningKey key = KeyFiles.loadOrCreate(keyFile, "--key", spec.commandLine(), out, "the node's ID across restarts");
        OverlayServer server = overlay.start(ServerSettings.of(key, listen).joining(bootstrap));
        if (!admin.start("Riptide node", List.of(NodeReport.of(server)), NodeReport.WATCHES, out)) {
            server.close();
            return 1;
        }
        AutoCloseable announcer = AnnounceOptions.whenJoined(mdns, server, Role.NODE, null, out);
        RunningNode.run("node", server, bootstrap, overlay, out, () -> "", () -> {
            announcer.close();
            admin.stop();
        });
        return 0;
    }
}
