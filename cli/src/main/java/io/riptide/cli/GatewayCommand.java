package io.riptide.cli;

import io.netty.channel.EventLoopGroup;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.discovery.Announcement.Role;
import io.riptide.dolr.discovery.MdnsInterface;
import io.riptide.dolr.server.NodeReport;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.admin.GatewayReport;
import io.riptide.gateway.admin.PurgeAction;
import io.riptide.gateway.admin.RevokeAction;
import io.riptide.gateway.origin.OriginFetcher;
import io.riptide.gateway.origin.OriginFetcherConfig;
import io.riptide.gateway.origin.OriginTls;
import io.riptide.core.net.OriginTrust;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide gateway --key FILE --port P --join HOST:PORT}: runs a provider's gateway on an overlay node. */
@Command(name = "gateway", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a gateway: an overlay node that inserts web objects for a provider.",
            "It fetches objects from their origins, signs them with the provider's key and inserts them into the "
            + "overlay, on request of cache managers and proxies. Stop it with Ctrl-C or SIGTERM."},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide gateway --key provider.key --port 7101 --join 10.0.0.1:7101",
            "  riptide gateway --config /etc/riptide/gateway.conf"})
final class GatewayCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--key", paramLabel = "FILE", required = true,
            description = "The provider's key: objects are signed with it, and browser proxies trust its public part. "
                + "Created if the file is missing; riptide keygen makes one too (required).")
    private Path providerKey;

    @Option(names = "--key-certificate", paramLabel = "FILE",
            description = "The rotation certificate for --key, written by riptide keygen --rotate: the gateway publishes it, "
                + "so proxies that trust the old key trust this one, and it also answers the old key's gateway service "
                + "(default: none).")
    private Path keyCertificate;

    @Mixin
    private OverlayOptions overlay;

    @Mixin
    private AdminOptions admin;

    @Mixin
    private AnnounceOptions announce;

    @Option(names = "--node-key", paramLabel = "FILE",
            description = "The node's own key, which fixes its node ID (default: a new key for this run only).")
    private Path nodeKey;

    @Option(names = "--publisher", paramLabel = "HOST=KEY",
            description = "Accept publisher pushes for URLs on HOST signed by KEY: the publisher's public key as "
                    + "ed25519:BASE64 (as `riptide keygen` prints it), or a key file; repeatable (default: none).")
    private Map<String, String> publishers = Map.of();

    @Option(names = "--max-object-mb", paramLabel = "MB", defaultValue = "8",
            description = "Largest object inserted, in MiB (default: ${DEFAULT-VALUE}).")
    private int maxObjectMb;

    @Option(names = "--allow-private-origins",
            description = "Also fetch origins on loopback, private (such as 192.168.1.1), link-local "
                + "(such as the cloud metadata service, 169.254.169.254) and other non-public addresses. Risky: anyone "
                + "in the overlay could then make this gateway fetch pages of its own network and sign them into the "
                + "shared cache. Only for a gateway that serves one internal network, such as a campus's own, and for "
                + "tests with loopback origins (default: off, public origins only).")
    private boolean allowPrivateOrigins;

    @Option(names = "--origin-ca", paramLabel = "FILE",
            description = "Also trust the CA certificates in this PEM file when fetching https:// origins, besides the system "
                + "trust store: for an internal CA, or a test origin of your own; repeatable (default: the system trust store alone).")
    private List<Path> originTrust = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        NodeAddress listen = overlay.listen();
        NodeAddress bootstrap = overlay.bootstrap();
        MdnsInterface mdns = announce.where(listen);
        if (maxObjectMb < 1 || maxObjectMb > 14) {
            throw new ParameterException(spec.commandLine(), "--max-object-mb must be between 1 and 14, got " + maxObjectMb);
        }
        OriginTls tls;
        try {
            tls = OriginTls.trusting(OriginTrust.systemPlus(originTrust));
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--origin-ca: " + e.getMessage());
        }
        SigningKey provider = KeyFiles.loadOrCreate(providerKey, "--key", spec.commandLine(), out, "the provider's key");
        KeyRecords certificate = certificate(provider);
        SigningKey node = nodeKey == null ? SigningKey.generate(new SecureRandom())
                : KeyFiles.loadOrCreate(nodeKey, "--node-key", spec.commandLine(), out, "the node's ID");
        GatewayConfig config = GatewayConfig.defaults();
        for (Map.Entry<String, String> p : publishers.entrySet()) {
            // Only the public half is needed to check a push: the publisher keeps its private key.
            config = config.withPublisher(p.getKey(), KeyFiles.publicKey(p.getValue(), "--publisher", spec.commandLine()));
        }
        config = new GatewayConfig(config.maxJobs(), config.leaseTtl(), config.recentResults(), maxObjectMb << 20,
                config.monitorAfterStale(), config.staleWindow(), config.minMonitorInterval(), config.maxMonitorInterval(),
                config.maxMonitors(), config.publishers(), config.pushClockSkew());

        EventLoopGroup fetchGroup = NettyTransport.current().newGroup(2);
        OriginFetcher fetcher = new OriginFetcher(fetchGroup, OriginFetcherConfig.defaults().withMaxBodyBytes(maxObjectMb << 20)
                .withPrivateOrigins(allowPrivateOrigins), tls, Clock.systemUTC());
        Gateway[] gateway = new Gateway[1];
        GatewayConfig finalConfig = config;
        OverlayServer server;
        try {
            server = overlay.start(ServerSettings.of(node, listen).joining(bootstrap).withApplication(n -> {
                gateway[0] = (Gateway) Gateway.factory(provider, fetcher::fetch, finalConfig, PushMode.NONE, certificate).apply(n);
                return gateway[0];
            }, DolrCodec.create()));
        } catch (RuntimeException e) {
            fetcher.close();
            fetchGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw e;
        }
        if (!admin.start("Riptide gateway", List.of(NodeReport.of(server), new GatewayReport(server, () -> gateway[0],
                fetcher::metrics)), concat(NodeReport.WATCHES, GatewayReport.WATCHES),
                Map.of(PurgeAction.PATH, new PurgeAction(server, () -> gateway[0]),
                        RevokeAction.PATH, new RevokeAction(server, () -> gateway[0])), out)) {
            server.close();
            fetcher.close();
            fetchGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            return 1;
        }
        RunningNode.say(out, "provider key " + provider.publicKey() + " (proxies trust this)");
        if (!certificate.isEmpty()) {
            RunningNode.say(out, "key certificate: " + provider.publicKey() + " succeeds "
                    + certificate.rotations().stream().map(r -> r.oldKey().toString()).distinct().toList()
                    + " (proxies that trust those keys trust this one too)");
        }
        AutoCloseable announcer = AnnounceOptions.whenJoined(mdns, server, Role.GATEWAY, provider.publicKey(), out);
        if (!originTrust.isEmpty()) {
            RunningNode.say(out, "https origins verified against the system trust store and " + originTrust);
        }
        if (allowPrivateOrigins) {
            RunningNode.say(out, "private origins allowed: this gateway also fetches loopback, private and link-local addresses");
        }
        RunningNode.run("gateway", server, bootstrap, overlay, out,
                () -> String.format("origin fetches %d, inserts in progress %d, monitors %d",
                        gateway[0].inserter().originFetches(), gateway[0].inserter().inProgress(), gateway[0].monitors().size()),
                () -> {
                    announcer.close();
                    admin.stop();
                    fetcher.close();
                    fetchGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
                });
        return 0;
    }

    static <T> List<T> concat(List<T> a, List<T> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    // The --key-certificate's rotations, checked against the provider key before anything starts.
    private KeyRecords certificate(SigningKey provider) {
        if (keyCertificate == null) {
            return KeyRecords.EMPTY;
        }
        KeyRecords records;
        try {
            records = KeyRecords.load(keyCertificate);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--key-certificate: " + e.getMessage());
        }
        if (records.rotations().stream().noneMatch(r -> r.newKey().equals(provider.publicKey()))) {
            throw new ParameterException(spec.commandLine(), "--key-certificate: " + keyCertificate + " does not certify the "
                    + "--key " + provider.publicKey() + "; give the certificate riptide keygen --rotate wrote with this key");
        }
        if (records.rotations().stream().anyMatch(r -> !r.signatureValid())) {
            throw new ParameterException(spec.commandLine(), "--key-certificate: " + keyCertificate
                    + " holds a rotation whose signature does not verify (damaged or forged)");
        }
        return records;
    }
}
