package io.riptide.cli;

import io.riptide.cachemanager.CacheManager;
import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.cachemanager.admin.CacheManagerReport;
import io.riptide.cachemanager.replicas.PlacementPolicy;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.discovery.Announcement.Role;
import io.riptide.dolr.discovery.MdnsInterface;
import io.riptide.dolr.server.NodeReport;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide cache-manager --provider KEY --port P --join HOST:PORT}: runs a cache manager for a campus network. */
@Command(name = "cache-manager", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a cache manager: the overlay node a campus network's browser proxies report to.",
            "It turns the proxies' hints into action: inserts through the nearest gateway, replicas near its "
            + "users, more replicas for hot objects, monitors for objects that keep going stale. Stop it with "
            + "Ctrl-C or SIGTERM."},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide cache-manager --provider ed25519:BASE64 --port 7102 --join 10.0.0.1:7101",
            "  riptide cache-manager --config /etc/riptide/cache-manager.conf"})
final class CacheManagerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--provider", paramLabel = "KEY", required = true,
            description = "The provider whose objects to manage: its key file, or its public key as ed25519:BASE64 (required).")
    private String provider;

    @Mixin
    private OverlayOptions overlay;

    @Mixin
    private AdminOptions admin;

    @Mixin
    private AnnounceOptions announce;

    @Option(names = "--node-key", paramLabel = "FILE",
            description = "The node's own key, which fixes its node ID (default: a new key for this run only).")
    private Path nodeKey;

    @Option(names = "--placement", paramLabel = "POLICY", defaultValue = "CLIMB",
            description = "Where slow hits get replicas: LOCAL (on this node) or CLIMB (k hops up the object's tree) (default: ${DEFAULT-VALUE}).")
    private PlacementPolicy placement;

    @Option(names = "--copy-inserts", paramLabel = "BOOL", defaultValue = "true", arity = "1",
            description = "Copy what a gateway inserted at this manager's request to this node, so the stub that missed "
                    + "it holds it (default: ${DEFAULT-VALUE}).")
    private boolean copyInserts;

    @Option(names = "--campus-centre", paramLabel = "BOOL", defaultValue = "true", arity = "1",
            description = "Also copy what this campus reads to the node its readers are nearest on average, when that "
                    + "is not this one (default: ${DEFAULT-VALUE}).")
    private boolean campusCentre;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        NodeAddress listen = overlay.listen();
        NodeAddress bootstrap = overlay.bootstrap();
        MdnsInterface mdns = announce.where(listen);
        PublicKey providerKey = KeyFiles.publicKey(provider, "--provider", spec.commandLine());
        SigningKey node = nodeKey == null ? SigningKey.generate(new SecureRandom())
                : KeyFiles.loadOrCreate(nodeKey, "--node-key", spec.commandLine(), out, "the node's ID");
        CacheManagerConfig config = CacheManagerConfig.defaults();
        config = config.withPlacement(placement, config.climb()).withCopyInserts(copyInserts).withCampusCentre(campusCentre);
        CacheManager[] manager = new CacheManager[1];
        CacheManagerConfig finalConfig = config;
        OverlayServer server = overlay.start(ServerSettings.of(node, listen).joining(bootstrap).withApplication(n -> {
            manager[0] = (CacheManager) CacheManager.factory(providerKey, finalConfig).apply(n);
            return manager[0];
        }, DolrCodec.create()));
        if (!admin.start("Riptide cache manager", List.of(NodeReport.of(server), new CacheManagerReport(server, () -> manager[0])),
                GatewayCommand.concat(NodeReport.WATCHES, CacheManagerReport.WATCHES), out)) {
            server.close();
            return 1;
        }
        AutoCloseable announcer = AnnounceOptions.whenJoined(mdns, server, Role.CACHE_MANAGER, providerKey, out);
        RunningNode.run("cache-manager", server, bootstrap, overlay, out,
                () -> String.format("hints %d, insert requests %d", manager[0].hints(), manager[0].gateway().sent()), () -> {
                    announcer.close();
                    admin.stop();
                });
        return 0;
    }
}
