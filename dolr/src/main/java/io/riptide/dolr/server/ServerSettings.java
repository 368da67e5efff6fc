package io.riptide.dolr.server;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.stage.StageConfig;
import io.riptide.core.wire.MessageCodec;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.store.StoreSettings;
import io.riptide.dolr.transport.TransportConfig;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * What an {@link OverlayServer} runs: the node's key, where it listens, whom it joins through, and
 * the configuration of its overlay node, transport and stages.
 *
 * @param key the node's key; its public key names the node
 * @param listen host and port to listen on (port 0: any free port); the host is advertised to peers
 * @param bootstrap a member to join through, or null to start a new overlay
 * @param dolr the overlay node's tunables
 * @param transport the TCP transport's limits
 * @param stages the node's SEDA stages
 * @param codec the messages the node speaks: the overlay's, plus the application's
 * @param application makes the agent running on the node, given the node (a plain node runs none)
 * @param store the node's disk-backed replica store (its writes run on the {@value #DISK_STAGE}
 *        stage, which {@code stages} must then include), or null to keep replicas in memory
 *        ({@link io.riptide.dolr.DolrConfig#maxReplicaBytes()})
 */
public record ServerSettings(
        SigningKey key,
        NodeAddress listen,
        NodeAddress bootstrap,
        DolrConfig dolr,
        TransportConfig transport,
        List<StageConfig> stages,
        MessageCodec codec,
        Function<OverlayNode, OverlayApplication> application,
        StoreSettings store) {

    /** Stage for hashing, signing and verifying: CPU-bound, so few threads. */
    public static final String CRYPTO_STAGE = "crypto";
    /** Stage for blocking disk I/O: a disk store's writes ({@link io.riptide.dolr.store.DiskWrites}). */
    public static final String DISK_STAGE = StoreSettings.DISK_STAGE;

    public ServerSettings {
        if (key == null || listen == null || dolr == null || transport == null || stages == null || codec == null
                || application == null) {
            throw new IllegalArgumentException("only bootstrap and store may be null");
        }
        stages = List.copyOf(stages);
        if (store != null && stages.stream().noneMatch(s -> s.name().equals(DISK_STAGE))) {
            throw new IllegalArgumentException("a node with a disk store needs the '" + DISK_STAGE + "' stage for its writes");
        }
    }

    /** The crypto stage a node starts with unless told: 256 jobs may wait, up to 2 threads (CPU-bound work). */
    public static StageConfig defaultCryptoStage() {
        return StageConfig.of(CRYPTO_STAGE, 256, 1, 2);
    }

    /**
     * The disk stage a node starts with unless told: 256 jobs may wait, up to 2 threads. A disk
     * store's writes use one thread at a time, in order (see {@link io.riptide.dolr.store.DiskWrites}).
     */
    public static StageConfig defaultDiskStage() {
        return StageConfig.of(DISK_STAGE, 256, 1, 2);
    }

    /** A plain storage and routing node that starts a new overlay, with default configuration. */
    public static ServerSettings of(SigningKey key, NodeAddress listen) {
        return new ServerSettings(key, listen, null, DolrConfig.defaults(), TransportConfig.defaults(),
                List.of(defaultCryptoStage(), defaultDiskStage()),
                DolrCodec.create(), node -> OverlayApplication.NONE, null);
    }

    /** The member to join through; empty when the node starts a new overlay. */
    public Optional<NodeAddress> bootstrapAddress() {
        return Optional.ofNullable(bootstrap);
    }

    /** These settings, joining through {@code member} (null: start a new overlay). */
    public ServerSettings joining(NodeAddress member) {
        return new ServerSettings(key, listen, member, dolr, transport, stages, codec, application, store);
    }

    /** These settings with another overlay configuration. */
    public ServerSettings withDolr(DolrConfig config) {
        return new ServerSettings(key, listen, bootstrap, config, transport, stages, codec, application, store);
    }

    /** These settings with another transport configuration. */
    public ServerSettings withTransport(TransportConfig config) {
        return new ServerSettings(key, listen, bootstrap, dolr, config, stages, codec, application, store);
    }

    /** These settings with other stages. */
    public ServerSettings withStages(List<StageConfig> configs) {
        return new ServerSettings(key, listen, bootstrap, dolr, transport, configs, codec, application, store);
    }

    /** These settings keeping replicas in the disk store {@code settings} describes (null: in memory). */
    public ServerSettings withStore(StoreSettings settings) {
        return new ServerSettings(key, listen, bootstrap, dolr, transport, stages, codec, application, settings);
    }

    /** The disk store, if the node keeps its replicas on disk. */
    public Optional<StoreSettings> storeSettings() {
        return Optional.ofNullable(store);
    }

    /** These settings running {@code app} over a codec that knows its messages. */
    public ServerSettings withApplication(OverlayApplication app, MessageCodec appCodec) {
        return withApplication(node -> app, appCodec);
    }

    /** These settings running the agent {@code factory} makes for the node, over a codec that knows its messages. */
    public ServerSettings withApplication(Function<OverlayNode, OverlayApplication> factory, MessageCodec appCodec) {
        return new ServerSettings(key, listen, bootstrap, dolr, transport, stages, appCodec, factory, store);
    }
}
