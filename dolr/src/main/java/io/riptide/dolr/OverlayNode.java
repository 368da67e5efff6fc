package io.riptide.dolr;

import io.riptide.core.id.Id;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.ProviderTrust;
import io.riptide.core.object.ReplicaUpdateCheck;
import io.riptide.core.object.Tombstone;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.store.ContentStore;
import io.riptide.core.store.disk.DiskStats;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.bloom.BloomMessages.BloomAd;
import io.riptide.dolr.bloom.BloomMessages.BloomPull;
import io.riptide.dolr.bloom.LocalArea;
import io.riptide.dolr.client.AccessPoint;
import io.riptide.dolr.client.Asks;
import io.riptide.dolr.client.ClientMessages.ClientAsk;
import io.riptide.dolr.client.ClientMessages.ClientAnycast;
import io.riptide.dolr.client.ClientMessages.ClientRead;
import io.riptide.dolr.dissemination.Dissemination;
import io.riptide.dolr.dissemination.TreeStats;
import io.riptide.dolr.dissemination.TreeView;
import io.riptide.dolr.lease.LeaseMessages.Claim;
import io.riptide.dolr.lease.LeaseMessages.ClaimReply;
import io.riptide.dolr.lease.LeaseResult;
import io.riptide.dolr.lease.Leases;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocateStats;
import io.riptide.dolr.location.Location;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.location.LocationMessages.BodyRead;
import io.riptide.dolr.location.LocationMessages.Found;
import io.riptide.dolr.location.LocationMessages.HeadRead;
import io.riptide.dolr.location.LocationMessages.ListReplicas;
import io.riptide.dolr.location.LocationMessages.Locate;
import io.riptide.dolr.location.LocationMessages.LocateFailed;
import io.riptide.dolr.location.LocationMessages.ObjectDelivery;
import io.riptide.dolr.location.LocationMessages.PointerCopy;
import io.riptide.dolr.location.LocationMessages.Rivals;
import io.riptide.dolr.location.LocationMessages.Publish;
import io.riptide.dolr.location.LocationMessages.PublishAck;
import io.riptide.dolr.location.LocationMessages.ReadBody;
import io.riptide.dolr.location.LocationMessages.ReadHead;
import io.riptide.dolr.location.LocationMessages.ReadReplica;
import io.riptide.dolr.location.LocationMessages.ReplicaList;
import io.riptide.dolr.location.LocationMessages.ReplicaRead;
import io.riptide.dolr.location.LocationMessages.WhereIs;
import io.riptide.dolr.location.PointerStore;
import io.riptide.dolr.location.SaltedRoots;
import io.riptide.dolr.membership.Membership;
import io.riptide.dolr.membership.MembershipListener;
import io.riptide.dolr.membership.MembershipMessages.Announce;
import io.riptide.dolr.membership.MembershipMessages.Join;
import io.riptide.dolr.membership.MembershipMessages.JoinRequest;
import io.riptide.dolr.membership.MembershipMessages.JoinState;
import io.riptide.dolr.membership.MembershipMessages.LeafSetGossip;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import io.riptide.dolr.membership.MembershipMessages.RowReply;
import io.riptide.dolr.membership.MembershipMessages.LeafSetRequest;
import io.riptide.dolr.membership.MembershipMessages.Leave;
import io.riptide.dolr.membership.MembershipMessages.RowRequest;
import io.riptide.dolr.membership.Prober;
import io.riptide.dolr.placement.MasterForwarding;
import io.riptide.dolr.placement.PlaceResult;
import io.riptide.dolr.placement.Placement;
import io.riptide.dolr.placement.PlacementMessages.Place;
import io.riptide.dolr.placement.PlacementMessages.Placed;
import io.riptide.dolr.placement.PlacementMessages.Distances;
import io.riptide.dolr.placement.PlacementMessages.ForwardedReplica;
import io.riptide.dolr.placement.PlacementMessages.DistancesRequest;
import io.riptide.dolr.placement.PlacementMessages.Replicate;
import io.riptide.dolr.placement.PlacementMessages.Replicated;
import io.riptide.dolr.placement.PlacementMessages.Retire;
import io.riptide.dolr.placement.ReplicaCopier;
import io.riptide.dolr.placement.RemoteDistances;
import io.riptide.dolr.placement.Replication;
import io.riptide.dolr.routing.HopChoice;
import io.riptide.dolr.routing.HopSender;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.PeerTable;
import io.riptide.dolr.routing.RouteForwarder;
import io.riptide.dolr.routing.RouteHandler;
import io.riptide.dolr.routing.Router;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.HopAck;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.dolr.routing.RoutingTable;
import io.riptide.dolr.secure.RedundantReadStats;
import io.riptide.dolr.secure.RedundantReads;
import io.riptide.dolr.store.DiskStorage;
import io.riptide.dolr.store.DiskWrites;
import io.riptide.dolr.store.ReplicaStorage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * One overlay node: the DOLR's public face. Routing ({@link #route}), location ({@link #publish},
 * {@link #locate}, {@link #sendToObject}, {@link #anycast}), replica placement ({@link #place}) and a
 * bounded replica store (a {@link ContentStore}: in memory, or on disk with {@code riptide node --store}),
 * over any {@link Env}, real or simulated. It wires the parts together and
 * dispatches incoming messages to them; each part lives in its own package.
 */
public final class OverlayNode implements MessageHandler {
    private final Env env;
    private final DolrConfig config;
    private final OverlayApplication app;
    private final PeerTable peers;
    private final RoutingTable table;
    private final LeafSet leafSet;
    private final HopSender hops;
    private final RouteForwarder forwarder;
    private final Prober prober;
    private final Membership membership;
    private final ReplicaStorage storage;
    private final ContentStore store;
    // Made on first use unless the storage keeps one (a disk store's, persisted).
    private VersionFloor versionFloor;
    // Judges versions that come down dissemination trees; made on first use, over the node's floor.
    private ReplicaUpdateCheck updateCheck;
    // Provider keys revoked (and the rotations giving revokers standing): learned from trees, kept with a disk store.
    private final ProviderTrust revokedKeys = ProviderTrust.open();
    private long revokedReplicasDropped;
    // Replicas being read to be replaced by revocation records, with the records (merged) to put.
    private final java.util.Map<Id, KeyRecords> replacing = new java.util.HashMap<>();
    private final ReplicaCopier copier;
    private final PointerStore pointers;
    private final LocalArea localArea;
    private final Location location;
    private final RedundantReads redundantReads;
    private final Placement placement;
    private final Replication replication;
    private final MasterForwarding forwarding;
    private final RemoteDistances distances;
    private final Leases leases;
    private final AccessPoint access;
    private final Asks asks;
    private final Dissemination dissemination;
    // Service GUIDs this node provides: located like replicas, never evicted.
    private final Set<Id> services = new LinkedHashSet<>();
    private long malformed;
    private long evictions;
    private long nonMasterEvictions;

    /** A node running {@code app}. */
    public OverlayNode(Env env, DolrConfig config, OverlayApplication app) {
        this(env, config, node -> app);
    }

    /**
     * A node running the application {@code appFactory} makes for it: for agents that act through the
     * node they run on. The factory is called last in construction; it may keep the node but should
     * not use it before the node starts.
     */
    public OverlayNode(Env env, DolrConfig config, Function<OverlayNode, OverlayApplication> appFactory) {
        this(env, config, ReplicaStorage.inMemory(config.maxReplicaBytes(), config.maxReplicas()), appFactory);
    }

    /**
     * A node keeping its replicas in {@code storage} (a disk store opened beforehand keeps what it held
     * before a restart, and the node publishes it once it has joined), running the application
     * {@code appFactory} makes for it.
     */
    public OverlayNode(Env env, DolrConfig config, ReplicaStorage storage, Function<OverlayNode, OverlayApplication> appFactory) {
        this.env = env;
        this.config = config;
        NodeHandle self = env.self();
        this.peers = new PeerTable(16_384);
        this.table = new RoutingTable(self.id(), config.slotCandidates());
        this.leafSet = new LeafSet(self.id(), config.leafSetHalf());
        this.pointers = new PointerStore(config.maxPointers());
        this.localArea = new LocalArea(env, config.localNeighbours(), config.bloomLevels(), config.bloomBits(),
                config.bloomHashes(), this::heldObjects, this::measure);
        this.storage = storage;
        this.store = storage.openHandingOver(env, this::onEvicted, localArea::heldByNeighbour);
        this.versionFloor = storage.versionFloor().orElse(null);
        revokedKeys.learn(storage.keyRecords());
        // Learned on the loop (the update check runs there); the sweep reads the store, so it runs after.
        revokedKeys.onRevoked(revocation -> env.execute(() -> {
            storage.keepKeyRecords(revokedKeys.records());
            dropSignedBy(revocation.revokedKey());
        }));
        List<Id> recovered = store.guids(); // held before a restart: published once the node has joined
        this.prober = new Prober(env, peers, config.failAfter().dividedBy(2), config.maxProbesInFlight(), config.maxProbeQueue(),
                () -> membership().isJoined(), peer -> membership().learn(peer));
        // The hop sender and forwarder report suspects to membership, which is built after them.
        Consumer<NodeHandle> suspect = peer -> membership().suspect(peer);
        this.hops = new HopSender(env, peers, config.hopTimeoutFloor(), peer -> membership().learn(peer));
        this.forwarder = new RouteForwarder(env, new Router(self, table, leafSet), peers, hops, config.hopRetries(), suspect);
        this.location = new Location(env, config, forwarder, hops, pointers,
                guid -> store.contains(guid) || services.contains(guid), store::get,
                guid -> store.head(guid).thenApply(head -> head == null ? null : head.toBytes()), this::heldObjects, localArea,
                leafSet, peers, suspect,
                (guid, payload, requester, requestId, hops) -> application().deliverToObject(guid, payload, requester, requestId, hops),
                this::slotBackups, this::measure);
        this.redundantReads = new RedundantReads(env, location, config.locateDeadline().multipliedBy(2));
        this.membership = new Membership(env, config, table, leafSet, peers, prober, forwarder, new MembershipListener() {
            @Override
            public void onMeasured(NodeHandle peer, long rttNanos) {
                localArea.offer(peer, rttNanos);
            }

            @Override
            public void onFailed(NodeHandle peer) {
                localArea.remove(peer.id());
                location.onFailed(peer);
            }

            @Override
            public void onLeafAdded(NodeHandle added) {
                location.onLeafAdded(added);
            }

            @Override
            public void onJoined() {
                location.start();
                localArea.start(config.bloomRefresh());
                dissemination.start();
                recovered.stream().filter(store::contains).forEach(OverlayNode.this::announce);
                // Revocations kept across a restart: what the store still holds of those keys gives way now.
                revokedKeys.revokedKeys().forEach(OverlayNode.this::dropSignedBy);
                application().onJoined();
            }
        }, localArea::neighbours);
        this.copier = new ReplicaCopier(env, store,
                (guid, done) -> location.locate(guid, new ReadHead(), config.defaultTtl(), true, done),
                (replica, guid, done) -> location.readAt(replica, guid, config.defaultTtl(), done),
                config.locateDeadline());
        this.placement = new Placement(env, forwarder, store, copier,
                (guid, copiedFrom) -> {
                    announce(guid);
                    tree().join(guid, copiedFrom);
                }, config.locateDeadline().multipliedBy(2));
        this.replication = new Replication(env, store, copier,
                (guid, copiedFrom) -> {
                    announce(guid);
                    tree().join(guid, copiedFrom);
                }, this::dropReplica, this::anyWithinReach, config.locateDeadline().multipliedBy(2), 100_000);
        this.forwarding = new MasterForwarding(env, localArea, store, this::storeReplica, (guid, parent) -> tree().join(guid, parent));
        this.distances = new RemoteDistances(env, this::measure, config.locateDeadline().multipliedBy(2));
        forwarder.handle(Join.class, membership);
        forwarder.handle(Publish.class, location.publishHandler());
        forwarder.handle(Locate.class, location.locateHandler());
        forwarder.handle(ListReplicas.class, location.listHandler());
        forwarder.handle(Place.class, placement);
        // Two locate deadlines: a claim resent over a congested path still leaves a requester that waits
        // 10 s (the cache manager's insert deadline) time for the fetch; no resend sooner than a hop may take.
        this.leases = new Leases(env, forwarder, 100_000, config.locateDeadline().multipliedBy(2), config.hopTimeoutFloor());
        forwarder.handle(Claim.class, leases);
        this.asks = new Asks(this);
        this.access = new AccessPoint(this, 10_000);
        this.dissemination = new Dissemination(env, config.heartbeatInterval(), 3, store::get, (guid, data) -> {
            if (KeyRecords.isKeyRecords(data)) {
                try {
                    replaceRevoked(guid, KeyRecords.fromBytes(data));
                } catch (io.riptide.core.object.ObjectFormatException e) {
                    // The update check refused it already; nothing to store.
                }
                return;
            }
            if (Tombstone.is(data)) {
                // A purge: the old version's body goes now, not when replacement gets to it.
                store.remove(guid);
            }
            if (store.put(guid, data)) {
                announce(guid);
            }
        }, (guid, data) -> updateCheck().admits(guid, data), localArea::neighbours);
        this.app = appFactory.apply(this);
        forwarder.fallback(new RouteHandler() {
            @Override
            public boolean onHop(Routed m, boolean atRoot) {
                return atRoot || application().forward(m.key(), m.payload(), m.origin(), m.hops());
            }

            @Override
            public void onRoot(Routed m) {
                application().deliver(m.key(), m.payload(), m.origin(), m.hops());
            }

            @Override
            public HopChoice hopChoice() {
                return application().hopChoice();
            }
        });
    }

    /** The other candidates of the routing-table slot a message for {@code key} leaves this node through. */
    private List<NodeHandle> slotBackups(Id key) {
        int row = table.rowOf(key);
        if (row >= Id.DIGITS || leafSet.covers(key)) {
            return List.of();
        }
        List<NodeHandle> slot = new ArrayList<>(table.slot(row, key.digit(row)));
        NodeHandle next = forwarder.nextHop(key);
        slot.removeIf(h -> next != null && h.id().equals(next.id()));
        return slot;
    }

    private Dissemination tree() {
        return dissemination;
    }

    private OverlayApplication application() {
        return app;
    }

    /**
     * A peer's distance as an RTT in nanoseconds (the least sampled, see {@link PeerTable#distance}): the one
     * measured already, or a probe's answer (-1 if none came).
     */
    public void measure(NodeHandle peer, LongConsumer result) {
        if (peers.isMeasured(peer.id())) {
            result.accept(peers.distance(peer.id()));
        } else {
            prober.probe(peer, result);
        }
    }

    private Membership membership() {
        return membership;
    }

    // ---- lifecycle -----------------------------------------------------------------------------

    /** Starts a new overlay with this node as its only member. */
    public void startAlone() {
        membership.startAlone();
    }

    /** Joins the overlay through the node at {@code bootstrap}; {@link #isJoined()} turns true when done. */
    public void join(NodeAddress bootstrap) {
        membership.join(bootstrap);
    }

    public boolean isJoined() {
        return membership.isJoined();
    }

    /**
     * The node is shutting down: tells its leaf set and routing table, so they route around it at
     * once instead of timing out on it first. Call before the transport closes.
     */
    public void leave() {
        if (membership.isJoined()) {
            membership.leave();
        }
    }

    // ---- the common API ------------------------------------------------------------------------

    /** Routes {@code payload} to the root of {@code key}, where the application's {@code deliver} gets it. */
    public void route(Id key, WireMessage payload) {
        forwarder.route(new Routed(key, env.self(), 0, 0, payload));
    }

    /** Announces a replica of {@code guid} held here (see {@link #storeReplica}). */
    public void publish(Id guid) {
        announce(guid);
    }

    /** Publishes an object now held here, and lets the local area's Bloom filters hear of it at once. */
    private void announce(Id guid) {
        location.publish(guid);
        localArea.holdingsChanged(guid);
    }

    /** Withdraws this node's pointers for {@code guid}. */
    public void unpublish(Id guid) {
        location.unpublish(guid);
    }

    /** Stores {@code data} as a replica of {@code guid} here and publishes it. Returns false if it does not fit. */
    public boolean storeReplica(Id guid, byte[] data) {
        if (!store.put(guid, data)) {
            return false;
        }
        announce(guid);
        return true;
    }

    /**
     * Stores and publishes a replica like {@link #storeReplica(Id, byte[])}, and tells {@code rooted}
     * whether the publish reached the object's root (after which every node can find it). Returns
     * false, without calling {@code rooted}, if it does not fit.
     */
    public boolean storeReplica(Id guid, byte[] data, Consumer<Boolean> rooted) {
        if (!store.put(guid, data)) {
            return false;
        }
        location.publish(guid, rooted);
        localArea.holdingsChanged(guid);
        return true;
    }

    /**
     * Offers the service named {@code service} from this node: anycasts to it can reach this node
     * (the first pointer found leads to the nearest provider). Unlike a replica it is never evicted.
     */
    public void offerService(Id service) {
        if (services.add(service)) {
            announce(service);
        }
    }

    /** Stops offering {@code service}. */
    public void withdrawService(Id service) {
        if (services.remove(service)) {
            location.unpublish(service);
        }
    }

    private List<Id> heldObjects() {
        List<Id> all = new ArrayList<>(store.guids());
        all.addAll(services);
        return all;
    }

    /** Drops the replica of {@code guid} held here and withdraws its pointers. */
    public void dropReplica(Id guid) {
        replication.forget(guid);
        forwarding.forget(guid);
        if (store.remove(guid)) {
            location.unpublish(guid);
            dissemination.leave(guid);
        }
    }

    /*
     * Revocation records take the place of a replica signed by a revoked key (its body goes, as a
     * tombstone's does), so a reader of that GUID meets the revocation and learns it. Never over a
     * live object: a bundle is no version of it. Data already a bundle is replaced by the newer one.
     */
    private void replaceRevoked(Id guid, KeyRecords records) {
        KeyRecords pending = replacing.get(guid);
        if (pending != null) {
            // A read of the replica is on its way: its answer will put both in place.
            replacing.put(guid, pending.with(records));
            return;
        }
        replacing.put(guid, records);
        store.get(guid).whenComplete((held, error) -> env.execute(() -> {
            KeyRecords incoming = replacing.remove(guid);
            if (held == null) {
                return;
            }
            KeyRecords replacement = incoming;
            if (KeyRecords.isKeyRecords(held)) {
                // Two bundles (a tree's and this node's sweep, say): keep what both say, once.
                try {
                    KeyRecords kept = KeyRecords.fromBytes(held);
                    replacement = kept.with(incoming);
                    if (replacement.equals(kept)) {
                        return;
                    }
                } catch (io.riptide.core.object.ObjectFormatException | IllegalArgumentException e) {
                    replacement = incoming;
                }
            } else if (ReplicaUpdateCheck.signer(held).map(revokedKeys::isRevoked).orElse(false)) {
                revokedReplicasDropped++;
            } else {
                return;
            }
            store.remove(guid);
            if (store.put(guid, replacement.toBytes())) {
                announce(guid);
            }
        }));
    }

    // After a revocation: every replica here that the revoked key signed gives way to the revocation
    // (a tree's own copy of it, when it comes, then finds the same records in place).
    private void dropSignedBy(PublicKey revoked) {
        KeyRecords proof = revokedKeys.proof(revoked);
        for (Id guid : store.guids()) {
            replaceRevoked(guid, proof);
        }
    }

    /**
     * Learns {@code records} (a gateway's, before it publishes them down its trees): a revoked key's
     * replicas here then give way to its revocation, and trees bring no more of its versions.
     */
    public void learnKeyRecords(KeyRecords records) {
        revokedKeys.learn(records);
    }

    /** Replicas replaced by the revocation because the key that signed them was revoked. */
    public long revokedReplicasDropped() {
        return revokedReplicasDropped;
    }

    /** The provider keys this node has learned are revoked (an open {@link ProviderTrust}: it trusts no provider). */
    public ProviderTrust revokedKeys() {
        return revokedKeys;
    }

    /** {@code replica}: the evicted bytes, where the store can hand them over (in memory), else null. */
    private void onEvicted(Id guid, byte[] replica) {
        evictions++;
        boolean master = !localArea.heldByNeighbour(guid);
        if (!master) {
            nonMasterEvictions++;
        }
        replication.forget(guid);
        location.unpublish(guid);
        TreeView tree = dissemination.view(guid);
        boolean stillRoot = dissemination.evicted(guid, master && replica != null);
        // The neighbourhood's last copy goes to a neighbour, which takes this node's place in the tree
        // (under this node's parent, or under this node when it stays the tree's root without the data).
        forwarding.evicted(guid, replica, master, stillRoot ? env.self() : tree == null ? null : tree.parent());
    }

    /** Finds the nearest replica of {@code guid} within {@code ttl} hops, consulting Bloom filters first if {@code useBloom}. */
    public void locate(Id guid, int ttl, boolean useBloom, Consumer<LocateResult> done) {
        location.locate(guid, new WhereIs(), ttl, useBloom, done);
    }

    /** Reads the nearest replica of {@code guid}: the result carries its bytes ({@link LocateResult#data()}). */
    public void read(Id guid, int ttl, Consumer<LocateResult> done) {
        read(guid, ttl, true, done);
    }

    /** As {@link #read(Id, int, Consumer)}, consulting the local area's Bloom filters first only if {@code useBloom}. */
    public void read(Id guid, int ttl, boolean useBloom, Consumer<LocateResult> done) {
        location.locate(guid, new ReadReplica(), ttl, useBloom, done);
    }

    /**
     * Reads {@code guid} where peers may be hostile: {@code done} hears bytes that passed
     * {@code verify} (the caller's check of the provider's signature, say), or a failure, never
     * bytes that failed it. The plain read first; redundant routes only when it fails, is late or
     * lies ({@link RedundantReads}).
     */
    public void readVerified(Id guid, int ttl, Predicate<byte[]> verify, Consumer<LocateResult> done) {
        redundantReads.read(guid, ttl, verify, done);
    }

    /** This node's verified reads so far: how many widened, and the forged answers refused. */
    public RedundantReadStats redundantReadStats() {
        return redundantReads.stats();
    }

    /**
     * Has this node's publishes also reach {@code roots} salted roots of each GUID, where verified
     * reads look when the plain route fails ({@link SaltedRoots}). Every node of an overlay should
     * use the same number. 0 (the default): the GUID's own root only.
     */
    public void useSaltedRoots(int roots) {
        location.useSaltedRoots(roots);
    }

    /**
     * Whether this node, as an access node, reads for its clients verified ({@link #readVerified}
     * with the provider's signature check): where publishes reach salted roots, the overlay expects
     * untrusted nodes, and a client should not have to fall back to the origin because one lied.
     */
    public boolean readsVerifiedForClients() {
        return location.saltedRoots() > 0;
    }

    /**
     * Reads {@code guid} for a client (a browser proxy, through {@link io.riptide.dolr.client.AccessPoint}
     * or, in one process, {@link io.riptide.dolr.client.NodeAccess}): verified when
     * {@link #readsVerifiedForClients}, else the plain read.
     */
    public void readForClient(Id guid, int ttl, boolean useBloom, Consumer<LocateResult> done) {
        if (readsVerifiedForClients()) {
            readVerified(guid, ttl, data -> updateCheck().authentic(guid, data), done);
        } else {
            read(guid, ttl, useBloom, done);
        }
    }

    /**
     * Reads {@code guid} from the replica at {@code replica} rather than the nearest one; should it
     * no longer hold one, the nearest replica answers instead ({@link LocateResult#replica()} says who).
     */
    public void readAt(NodeHandle replica, Id guid, int ttl, Consumer<LocateResult> done) {
        location.readAt(replica, guid, ttl, done);
    }

    /**
     * Every replica of {@code guid} that its root's pointers name (the root itself included if it
     * holds one); an empty Optional if the root did not answer in time.
     */
    public void listReplicas(Id guid, Consumer<java.util.Optional<List<NodeHandle>>> done) {
        location.listReplicas(guid, done);
    }

    /**
     * Claims the lease on {@code key} at its root for {@code ttl}, so that nodes anywhere agree on one
     * of them doing something (see {@link Leases}).
     */
    public void claim(Id key, java.time.Duration ttl, Consumer<LeaseResult> done) {
        leases.claim(key, ttl, done);
    }

    /** This node's leases: those it keeps as a root, and its own claims' resends. */
    public Leases leases() {
        return leases;
    }

    /** Gives back a lease this node holds. */
    public void release(Id key) {
        leases.release(key);
    }

    /** Hands {@code payload} to the nearest replica of {@code guid}; the replica's application answers the requester directly. */
    public void sendToObject(Id guid, WireMessage payload, int ttl, Consumer<LocateResult> done) {
        location.locate(guid, payload, ttl, true, done);
    }

    /** Sends {@code payload} to the nearest node that published the service GUID {@code service}. */
    public void anycast(Id service, WireMessage payload, int ttl, Consumer<LocateResult> done) {
        location.locate(service, payload, ttl, true, done);
    }

    /**
     * Anycasts {@code question} to the nearest provider of {@code service}; {@code done} gets its one
     * answer, or empty if no provider was reachable or none answered within {@code deadline}.
     */
    public void ask(Id service, Question question, int ttl, Duration deadline, Consumer<Optional<Answer>> done) {
        asks.ask(service, question, ttl, deadline, done);
    }

    /** Creates a replica of {@code guid} {@code climb} hops up its routing tree from here. */
    public void place(Id guid, int climb, Consumer<PlaceResult> done) {
        placement.place(guid, climb, done);
    }

    /**
     * Asks {@code target} (any node; it need run no agent) to copy {@code guid} from its nearest
     * replica and hold it: for agents that spread replicas over chosen nodes, such as a stub's.
     */
    public void replicateTo(NodeHandle target, Id guid, Consumer<PlaceResult> done) {
        replication.replicateTo(target, guid, List.of(), done);
    }

    /**
     * As {@link #replicateTo(NodeHandle, Id, Consumer)}, unless one of {@code holders} is in the
     * target's local area: then the target makes no copy and answers not ok, with reason
     * {@link Replication#HELD_NEARBY}. An agent spreading copies one at a time names those it made.
     */
    public void replicateTo(NodeHandle target, Id guid, List<NodeHandle> holders, Consumer<PlaceResult> done) {
        replication.replicateTo(target, guid, holders, done);
    }

    /** The round trip within which a peer is in this node's local area ({@link LocalArea#localNanos}). */
    public long localReachNanos() {
        return localArea.localNanos(peers::distance);
    }

    /**
     * Hands {@code done} the round trips (nanoseconds, -1 where unknown) from {@code observer} to each
     * of {@code targets} (at most {@link io.riptide.dolr.placement.PlacementMessages#MAX_TARGETS}), as
     * the observer measures them: for agents choosing where a group of readers is nearest.
     */
    public void distancesFrom(NodeHandle observer, List<NodeHandle> targets, Consumer<long[]> done) {
        distances.from(observer, targets, done);
    }

    /** One of {@code holders} within this node's local area's reach ({@link #localReachNanos}), or null. */
    private void anyWithinReach(List<NodeHandle> named, Consumer<NodeHandle> done) {
        // This node itself is no nearby holder: whether it holds the object its store says.
        List<NodeHandle> holders = named.stream().filter(h -> !h.id().equals(self().id())).toList();
        long reach = localReachNanos();
        boolean[] answered = {false};
        int[] left = {holders.size()};
        for (NodeHandle h : holders) {
            measure(h, rtt -> {
                left[0]--;
                if (answered[0]) {
                    return;
                }
                if (rtt >= 0 && rtt <= reach) {
                    answered[0] = true;
                    done.accept(h);
                } else if (left[0] == 0) {
                    answered[0] = true;
                    done.accept(null);
                }
            });
        }
        if (holders.isEmpty()) {
            done.accept(null);
        }
    }

    /** Asks {@code target} to drop the replica of {@code guid} it copied at this node's asking ({@link #replicateTo}). */
    public void retireAt(NodeHandle target, Id guid) {
        replication.retireAt(target, guid);
    }

    // ---- dissemination trees ----------------------------------------------------------------------

    /** This node holds the primary copy of {@code guid}: it becomes the root of the object's tree. */
    public void startTree(Id guid, long stamp) {
        dissemination.startTree(guid, stamp);
    }

    /** This node holds a replica of {@code guid} copied from {@code parent}: it joins the tree as its child. */
    public void joinTree(Id guid, NodeHandle parent) {
        dissemination.join(guid, parent);
    }

    /**
     * At the root: {@code data} is the object's new content; stored here and pushed down the tree to
     * every replica. {@code stamp} orders updates (members ignore one not newer than theirs). Returns
     * false if this node is not the root of {@code guid}'s tree.
     */
    public boolean publishUpdate(Id guid, byte[] data, long stamp) {
        return dissemination.publish(guid, data, stamp);
    }

    /** What this node's dissemination-tree updates cost and how its deltas fared. */
    public TreeStats treeStats() {
        return dissemination.stats();
    }

    /** How many dissemination trees this node belongs to. */
    public int treeCount() {
        return dissemination.size();
    }

    /** Up to {@code max} of the objects whose dissemination trees this node belongs to. */
    public List<Id> trees(int max) {
        return dissemination.guids(max);
    }

    /** This node's place in {@code guid}'s tree, or null. */
    public TreeView treeOf(Id guid) {
        return dissemination.view(guid);
    }

    /** Sends an application message straight to another node. */
    public void send(NodeAddress to, WireMessage message) {
        env.send(to, message);
    }

    // ---- incoming messages ---------------------------------------------------------------------

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (message instanceof Hop hop) {
            env.send(from.address(), new HopAck(hop.hopId()));
            dispatch(from, hop.inner(), true);
        } else {
            dispatch(from, message, false);
        }
    }

    private void dispatch(NodeHandle from, WireMessage m, boolean viaHop) {
        peers.heard(from, env.nowNanos());
        if (viaHop && m instanceof Routed routed) {
            forwarder.route(routed);
        } else if (viaHop && m instanceof Locate locate) {
            location.onDirectLocate(locate, from);
        } else if (viaHop && m instanceof ObjectDelivery delivery) {
            location.onDelivery(delivery);
        } else if (m instanceof HopAck ack) {
            hops.onAck(from, ack);
        } else if (m instanceof Ping ping) {
            membership.onPing(from, ping);
        } else if (m instanceof Pong pong) {
            membership.onPong(from, pong);
        } else if (m instanceof LeafSetGossip gossip) {
            membership.onLeafSetGossip(from, gossip);
        } else if (m instanceof JoinRequest request) {
            membership.onJoinRequest(from, request);
        } else if (m instanceof JoinState state) {
            membership.onJoinState(from, state);
        } else if (m instanceof Announce) {
            membership.onAnnounce(from);
        } else if (m instanceof LeafSetRequest) {
            membership.onLeafSetRequest(from);
        } else if (m instanceof Leave) {
            membership.onLeave(from);
        } else if (m instanceof RowRequest request) {
            membership.onRowRequest(from, request);
        } else if (m instanceof RowReply reply) {
            membership.onRowReply(from, reply);
        } else if (m instanceof Found found) {
            location.onFound(from, found);
        } else if (dissemination.handle(from, m)) {
            return;
        } else if (m instanceof ClientRead read) {
            access.onRead(from, read);
        } else if (m instanceof ClientAnycast anycast) {
            access.onAnycast(anycast);
        } else if (m instanceof ClientAsk ask) {
            access.onAsk(from, ask);
        } else if (m instanceof ReplicaRead read) {
            location.onReplicaRead(from, read);
        } else if (m instanceof HeadRead read) {
            location.onHeadRead(from, read);
        } else if (m instanceof ReadBody read) {
            copier.onReadBody(from, read);
        } else if (m instanceof BodyRead read) {
            copier.onBodyRead(from, read);
        } else if (m instanceof ClaimReply reply) {
            leases.onReply(reply);
        } else if (m instanceof LocateFailed failed) {
            location.onLocateFailed(failed);
        } else if (m instanceof ReplicaList list) {
            location.onReplicaList(list);
        } else if (m instanceof Rivals rivals) {
            location.onRivals(rivals);
        } else if (m instanceof PointerCopy copy) {
            location.onPointerCopy(from, copy);
        } else if (m instanceof PublishAck ack) {
            location.onPublishAck(ack);
        } else if (m instanceof BloomPull pull) {
            localArea.onPull(from, pull.adopt());
        } else if (m instanceof BloomAd ad) {
            localArea.onAd(from, ad);
        } else if (m instanceof Placed placed) {
            placement.onPlaced(from, placed);
        } else if (m instanceof Replicate replicate) {
            replication.onReplicate(from, replicate);
        } else if (m instanceof Replicated replicated) {
            replication.onReplicated(from, replicated);
        } else if (m instanceof ForwardedReplica forwarded) {
            forwarding.onForwarded(from, forwarded);
        } else if (m instanceof Retire retire) {
            replication.onRetire(from, retire);
        } else if (m instanceof DistancesRequest request) {
            distances.onRequest(from, request);
        } else if (m instanceof Distances reply) {
            distances.onReply(reply);
        } else if (m instanceof Routed || m instanceof Locate || m instanceof ObjectDelivery || m instanceof Hop) {
            malformed++; // overlay messages that must come wrapped in a hop
        } else if (m instanceof Answer answer && asks.onAnswer(answer)) {
            return; // an answer to a question this node asked for a client: handed on
        } else {
            application().onMessage(from, m);
        }
    }

    // ---- introspection (status pages, tests, the simulator) ----------------------------------------

    public NodeHandle self() {
        return env.self();
    }

    /** The runtime this node runs on: agents on the node use it for time, timers and stages. */
    public Env env() {
        return env;
    }

    public DolrConfig config() {
        return config;
    }

    public LeafSet leafSet() {
        return leafSet;
    }

    public RoutingTable routingTable() {
        return table;
    }

    public PeerTable peers() {
        return peers;
    }

    /** The replicas this node holds. */
    public ContentStore replicas() {
        return store;
    }

    /** Replicas that left this node's store to make room. */
    public long replicaEvictions() {
        return evictions;
    }

    /** Of those, copies a local-area neighbour's filter said it also held (the master-preserving rule's choice, or chance). */
    public long nonMasterEvictions() {
        return nonMasterEvictions;
    }

    /** What N-chance forwarding of evicted masters did here: forwarded, accepted, declined, dropped at the chain bound. */
    public MasterForwarding.Stats masterForwards() {
        return forwarding.stats();
    }

    /** The disk tier's counters if this node keeps its replicas on disk; empty for an in-memory store. */
    public java.util.Optional<DiskStats.Snapshot> diskStats() {
        return storage instanceof DiskStorage disk ? disk.diskStats() : java.util.Optional.empty();
    }

    /** What the disk store's write queue did (writes queued, run, refused); empty for an in-memory store. */
    public java.util.Optional<DiskWrites.Stats> diskWrites() {
        return storage instanceof DiskStorage disk ? java.util.Optional.of(disk.writeStats()) : java.util.Optional.empty();
    }

    /**
     * The highest version of each GUID that agents on this node have accepted certified current:
     * their verifiers share it, so a replay of an older version is refused ({@link VersionFloor#admits},
     * counted). Kept with a disk store across restarts ({@link DiskStorage}); in memory otherwise. On the loop.
     */
    public VersionFloor versionFloor() {
        if (versionFloor == null) {
            versionFloor = new VersionFloor(VersionFloor.DEFAULT_CAPACITY);
        }
        return versionFloor;
    }

    /**
     * What this node checks of each version its dissemination trees bring before it replaces a replica:
     * signed for the GUID, not older than the node's floor (see {@link ReplicaUpdateCheck}); its counts
     * show refused updates and tombstones. On the loop.
     */
    public ReplicaUpdateCheck updateCheck() {
        if (updateCheck == null) {
            updateCheck = new ReplicaUpdateCheck(versionFloor(), LocationMessages.MAX_READ_BYTES, revokedKeys);
        }
        return updateCheck;
    }

    /** The node's update check if a tree has brought anything yet; empty otherwise (inspection). */
    public java.util.Optional<ReplicaUpdateCheck> updateCheckIfAny() {
        return java.util.Optional.ofNullable(updateCheck);
    }

    /** The node's version floor if an agent has used it or the store keeps one; empty otherwise (inspection). */
    public java.util.Optional<VersionFloor> versionFloorIfAny() {
        return java.util.Optional.ofNullable(versionFloor);
    }

    /** What this node's digest-first replica copies did. */
    public ReplicaCopier.Stats copyStats() {
        return copier.stats();
    }

    /**
     * Flushes and closes the replica store: a disk store runs its queued writes and writes its
     * checkpoint. Call after the node stopped, off its loop for a disk store (it waits on the disk).
     */
    public void closeStore() {
        if (storage instanceof DiskStorage disk) {
            disk.close();
        } else {
            store.close();
        }
    }

    public PointerStore pointers() {
        return pointers;
    }

    public LocalArea localArea() {
        return localArea;
    }

    /** Where this node would send a message for {@code key} next (null: it is the root). */
    public NodeHandle nextHop(Id key) {
        return forwarder.nextHop(key);
    }

    /** Messages that arrived in the wrong form and were ignored. */
    public long malformed() {
        return malformed;
    }

    /** Routed messages given up after every retry. */
    public long routesDropped() {
        return forwarder.dropped();
    }

    /** This node's locates and reads so far: answered, failed, hedged. */
    public LocateStats locateStats() {
        return location.stats();
    }

    /** Peers this node has declared failed. */
    public long failuresDetected() {
        return membership.failures();
    }

    /** Leaf sets sent to nodes that gossiped here but belong in neither side of this node's leaf set. */
    public long leafSetCorrectionsSent() {
        return membership.correctionsSent();
    }

    /** Peers that told this node they were shutting down (and were dropped at once). */
    public long departuresHeard() {
        return membership.departures();
    }

    /** Peers refused a place in the routing table and leaf set: their source address had the most node IDs allowed. */
    public long refusedOverSourceLimit() {
        return membership.refusedOverSourceLimit();
    }

    /** Join requests left unanswered because their source had started its most joins through this node this minute. */
    public long joinsRefused() {
        return membership.joinsRefused();
    }

    /** The source (address prefix) of the last peer refused over the per-source limit, or null if none was. */
    public String lastSourceRefused() {
        return membership.lastSourceRefused();
    }

    /** Probe answers ignored: from another node ID or another address than the probed handle's (an unproved handle). */
    public long probeAnswersRefused() {
        return prober.answersRefused();
    }

    /** Pings sent to measure or check peers. */
    public long probesSent() {
        return prober.probesSent();
    }
}
