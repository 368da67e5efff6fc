package io.riptide.dolr.server;

import io.riptide.core.id.Id;
import io.riptide.core.net.NettyTransport;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.stage.StageMetrics;
import io.riptide.core.store.disk.DiskStats;
import io.riptide.core.object.ReplicaUpdateCheck;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.admin.CounterLog;
import io.riptide.dolr.admin.MetricSet;
import io.riptide.dolr.admin.StageFamilies;
import io.riptide.dolr.admin.ReportPart;
import io.riptide.dolr.admin.StatusSource;
import io.riptide.dolr.dissemination.TreeView;
import io.riptide.dolr.routing.RoutingTable;
import io.riptide.dolr.store.DiskWrites;
import io.riptide.dolr.transport.TransportMetrics;
import io.riptide.dolr.secure.RedundantReadStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.event.Level;

/**
 * A running node's figures for its status page and metrics: identity, routing table, leaf set,
 * local-area neighbours, replicas, dissemination trees, stages and transport. The node's own state
 * is read on its loop; stages and transport counters from any thread.
 */
public final class NodeReport implements StatusSource {
    /** Most replica GUIDs and trees listed on the page; the counts are always complete. */
    static final int LISTED = 10;

    /** The node's counters worth a log line when they move. */
    public static final List<CounterLog.Watch> WATCHES = List.of(
            new CounterLog.Watch("io.riptide.dolr.server.OverlayServer", Level.WARN, "riptide_stage_refused_total", null,
                    "stages refused events (overloaded; see the status page's Stages table)"),
            new CounterLog.Watch("io.riptide.dolr.server.OverlayServer", Level.INFO,
                    "riptide_transport_handshakes_failed_total", null, "peer connections refused for a failed handshake"),
            new CounterLog.Watch("io.riptide.dolr.server.OverlayServer", Level.WARN, "riptide_store_writes_refused_total", null,
                    "the disk store refused replica writes (its write queue was full: the disk is slower than the writes)"),
            new CounterLog.Watch("io.riptide.dolr.server.OverlayServer", Level.WARN, "riptide_node_admissions_refused_total",
                    "source-limit", "peers refused a place in the routing state: their source address had the most "
                    + "node IDs allowed (many node IDs from one address: a Sybil attempt, or honest nodes behind one NAT; "
                    + "see max-ids-per-source)"));

    private final OverlayServer server;
    private final long startedNanos = System.nanoTime();

    private NodeReport(OverlayServer server) {
        this.server = server;
    }

    /** The report of {@code server}; uptime counts from now. */
    public static NodeReport of(OverlayServer server) {
        return new NodeReport(server);
    }

    @Override
    public CompletableFuture<ReportPart> report() {
        Duration uptime = Duration.ofNanos(System.nanoTime() - startedNanos);
        return server.call(Snapshot::of).thenApply(s -> render(s, uptime, server.stageMetrics(), server.transportMetrics(),
                server.nettyTransport()));
    }

    /** What is read on the node's loop: copies, so rendering happens off it. */
    private record Snapshot(Id id, String address, boolean joined, List<List<String>> routingRows, int routingEntries,
                            List<List<String>> leafSet, List<List<String>> neighbours, int replicas, long replicaBytes,
                            List<Id> someReplicas, int pointers, int peers, int trees, List<List<String>> someTrees,
                            long failuresDetected, long departuresHeard, long malformed, long routesDropped, long probesSent,
                            long refusedOverSourceLimit, long joinsRefused, String lastSourceRefused, long probeAnswersRefused, int bodies, long evictions, DiskStats.Snapshot disk, DiskWrites.Stats writes, Floor floor,
                            Keys keys, RedundantReadStats verifiedReads) {
        static Snapshot of(OverlayNode n) {
            Function<NodeHandle, String> rtt = h -> millis(n.peers().rtt(h.id()));
            RoutingTable table = n.routingTable();
            List<List<String>> rows = new ArrayList<>();
            String self = n.self().id().toHex();
            for (int row = 0; row < table.populatedRows(); row++) {
                List<String> entries = new ArrayList<>();
                for (int col = 0; col < Id.BASE; col++) {
                    NodeHandle h = table.primary(row, col);
                    if (h != null) {
                        int backups = table.slotSize(row, col) - 1;
                        entries.add(Integer.toHexString(col) + ": " + h.id().shortHex() + " " + rtt.apply(h)
                                + (backups > 0 ? " +" + backups : ""));
                    }
                }
                rows.add(List.of(Integer.toString(row), self.substring(0, row) + "…", Integer.toString(entries.size()),
                        String.join(" · ", entries)));
            }
            List<List<String>> leaves = new ArrayList<>();
            n.leafSet().left().forEach(h -> leaves.add(List.of("left", h.id().toHex(), h.address().toString(), rtt.apply(h))));
            n.leafSet().right().forEach(h -> leaves.add(List.of("right", h.id().toHex(), h.address().toString(), rtt.apply(h))));
            List<List<String>> near = n.localArea().neighbours().stream()
                    .map(h -> List.of(h.id().toHex(), h.address().toString(), rtt.apply(h))).toList();
            List<List<String>> trees = new ArrayList<>();
            for (Id guid : n.trees(LISTED)) {
                TreeView v = n.treeOf(guid);
                if (v != null) {
                    trees.add(List.of(guid.toHex(), v.root() ? "root" : "member",
                            v.parent() == null ? "-" : v.parent().toString(),
                            Integer.toString(v.children().size()),
                            String.join(", ", v.children().stream().limit(LISTED).map(NodeHandle::toString).toList())));
                }
            }
            return new Snapshot(n.self().id(), n.self().address().toString(), n.isJoined(), rows, table.all().size(), leaves,
                    near, n.replicas().objects(), n.replicas().payloadBytes(), n.replicas().guids().stream().limit(LISTED).toList(),
                    n.pointers().size(), n.peers().size(), n.treeCount(), trees, n.failuresDetected(), n.departuresHeard(), n.malformed(),
                    n.routesDropped(), n.probesSent(), n.refusedOverSourceLimit(), n.joinsRefused(), n.lastSourceRefused(), n.probeAnswersRefused(), n.replicas().bodies(), n.replicaEvictions(), n.diskStats().orElse(null),
                    n.diskWrites().orElse(null), n.versionFloorIfAny().map(f -> new Floor(f.size(), f.refused(),
                    n.updateCheckIfAny().map(ReplicaUpdateCheck::refused).orElse(0L),
                    n.updateCheckIfAny().map(ReplicaUpdateCheck::tombstonesAccepted).orElse(0L),
                    n.updateCheckIfAny().map(ReplicaUpdateCheck::tombstonesRefused).orElse(0L))).orElse(null),
                    new Keys(n.revokedKeys().revokedCount(),
                            n.updateCheckIfAny().map(ReplicaUpdateCheck::keyRecordsAccepted).orElse(0L),
                            n.updateCheckIfAny().map(ReplicaUpdateCheck::keyRecordsRefused).orElse(0L),
                            n.revokedKeys().forged() + n.revokedKeys().unknownSigners(),
                            n.updateCheckIfAny().map(ReplicaUpdateCheck::revokedRefused).orElse(0L),
                            n.revokedReplicasDropped()),
                    n.redundantReadStats());
        }
    }

    /**
     * The node's version floor: GUIDs remembered, older versions refused; and what its trees brought:
     * versions refused before they replaced a replica, tombstones taken and refused.
     */
    private record Floor(int guids, long refused, long updatesRefused, long tombstones, long tombstonesRefused) {
    }

    /**
     * Provider keys: revoked keys known, revocation bundles a tree brought (taken, refused), single
     * records refused (forged or without standing), versions refused and replicas dropped as signed by
     * a revoked key.
     */
    private record Keys(int revoked, long bundles, long bundlesRefused, long recordsRefused, long versionsRefused,
                        long replicasDropped) {
    }

    private static ReportPart render(Snapshot s, Duration uptime, Map<String, StageMetrics> stages, TransportMetrics t,
            NettyTransport netty) {
        ReportPart.Builder b = ReportPart.builder()
                .summary("node ID", s.id().toHex())
                .summary("address", s.address())
                .summary("state", s.joined() ? "joined" : "joining")
                .summary("uptime", uptime(uptime))
                .summary("replicas", s.replicas() + " (" + s.bodies() + " distinct bodies, " + s.replicaBytes() + " bytes)")
                .summary("store", s.disk() == null && s.writes() == null ? "in memory"
                        : "on disk: " + (s.disk() == null ? "" : s.disk().flushes() + " flushes, " + s.disk().writtenBytes()
                        + " bytes written, ") + s.writes().outstanding() + " writes not yet run (longest wait "
                        + millis(s.writes().maxWaitNanos()) + "), " + s.writes().refused() + " refused (queue full)")
                .summary("messages", "in " + t.messagesReceived() + ", out " + t.messagesSent() + ", dropped " + t.messagesDropped())
                .summary("peer connections", t.openConnections() + " open, " + t.unauthenticatedConnections()
                        + " not yet authenticated; refused over the caps: " + t.refusedOverSourceCap() + " per source, "
                        + t.refusedOverTotalCap() + " in all")
                .summary("admissions", s.refusedOverSourceLimit() + " peers refused over the limit of node IDs per source"
                        + (s.lastSourceRefused() == null ? "" : " (last from " + s.lastSourceRefused() + ")")
                        + "; " + t.handshakesAddressRefused() + " connections refused for an unproved address")
                // With the reason when the process's choice is NIO (forced, or epoll unavailable).
                .summary("transport", netty == NettyTransport.current() ? NettyTransport.describe() : netty.label());
        b.table("Routing table", "rows by shared prefix; each entry is digit: node RTT (+ backups)",
                List.of("row", "prefix", "entries", "digit: node"), s.routingRows());
        b.table("Leaf set", "", List.of("side", "node", "address", "RTT"), s.leafSet());
        b.table("Local-area neighbours", "", List.of("node", "address", "RTT"), s.neighbours());
        b.table("Replicas held", listed(s.someReplicas().size(), s.replicas()), List.of("GUID"),
                s.someReplicas().stream().map(g -> List.of(g.toHex())).toList());
        b.table("Dissemination trees", listed(s.someTrees().size(), s.trees()),
                List.of("object", "role", "parent", "children", "child nodes"), s.someTrees());
        List<List<String>> stageRows = new ArrayList<>();
        for (StageMetrics m : stages.values()) {
            stageRows.add(List.of(m.name(), Integer.toString(m.queueLength()), Integer.toString(m.threads()),
                    Long.toString(m.accepted()), Long.toString(m.refused()), Long.toString(m.failed()),
                    millis(m.meanWaitNanos()), millis(m.maxWaitNanos()), millis(m.meanServiceNanos()), millis(m.maxServiceNanos())));
        }
        b.table("Stages", "", List.of("stage", "queue", "threads", "accepted", "refused", "failed", "mean wait", "max wait",
                "mean service", "max service"), stageRows);

        MetricSet m = b.metrics();
        m.gauge("riptide_node_joined", "1 once the node has joined an overlay.", s.joined() ? 1 : 0)
                .gauge("riptide_node_uptime_seconds", "Time since the node started.", uptime.toMillis() / 1e3)
                .gauge("riptide_node_leaf_set_nodes", "Members of the leaf set.", s.leafSet().size())
                .gauge("riptide_node_routing_table_nodes", "Nodes in the routing table, backups included.", s.routingEntries())
                .gauge("riptide_node_routing_table_rows", "Rows of the routing table down to the deepest populated one.",
                        s.routingRows().size())
                .gauge("riptide_node_local_neighbours", "Local-area neighbours whose Bloom filters the node keeps.",
                        s.neighbours().size())
                .gauge("riptide_node_known_peers", "Peers the node has heard from or about.", s.peers())
                .gauge("riptide_node_replicas", "Objects stored on this node.", s.replicas())
                .gauge("riptide_node_replica_bytes", "Bytes of the distinct bodies stored on this node (a shared body counts once).",
                        s.replicaBytes())
                .gauge("riptide_node_replica_bodies", "Distinct bodies stored on this node.", s.bodies())
                .counter("riptide_node_replica_evictions_total", "Replicas that left the store to make room.", s.evictions())
                .gauge("riptide_node_pointers", "Object pointers kept for other nodes.", s.pointers())
                .gauge("riptide_node_dissemination_trees", "Dissemination trees the node belongs to.", s.trees())
                .counter("riptide_node_failures_detected_total", "Peers declared failed.", s.failuresDetected())
                .counter("riptide_node_departures_heard_total", "Peers that announced their shutdown and were dropped at once.",
                        s.departuresHeard())
                .counter("riptide_node_malformed_messages_total", "Messages refused as malformed.", s.malformed())
                .counter("riptide_node_routes_dropped_total", "Routed messages dropped (no next hop or hop budget spent).",
                        s.routesDropped())
                .counter("riptide_node_probes_sent_total", "Liveness and RTT probes sent.", s.probesSent())
                .counter("riptide_node_admissions_refused_total",
                        "Peers refused by reason: a place in the routing table and leaf set, their source address "
                                + "(prefix) having the most node IDs allowed (source-limit); a join routed for them, their "
                                + "source having started its most joins through this node this minute (join-rate).",
                        "reason", Map.of("source-limit", s.refusedOverSourceLimit(), "join-rate", s.joinsRefused()))
                .counter("riptide_node_probe_answers_refused_total",
                        "Probe answers ignored because another node ID or another address answered than the probed "
                                + "handle names (a handle learned second-hand that its address does not prove).",
                        s.probeAnswersRefused());
        if (s.writes() != null) {
            DiskWrites.Stats w = s.writes();
            m.gauge("riptide_store_write_queue_length", "Disk writes accepted and not yet run (queued or running).",
                            w.outstanding())
                    .gauge("riptide_store_write_queue_bytes", "Bytes of the disk writes queued.", w.queuedBytes())
                    .counter("riptide_store_writes_total", "Disk writes run on the disk stage.", w.completed())
                    .counter("riptide_store_writes_failed_total", "Disk writes that failed (I/O error, closed tier).", w.failed())
                    .counter("riptide_store_writes_refused_total",
                            "Replica writes refused because the write queue was full (the replica was not stored).", w.refused())
                    .gauge("riptide_store_write_wait_max_seconds", "Longest a disk write waited in the queue.",
                            w.maxWaitNanos() / 1e9);
        }
        if (s.floor() != null) {
            m.gauge("riptide_node_version_floor_guids", "GUIDs whose highest accepted version the node remembers.",
                            s.floor().guids())
                    .counter("riptide_node_version_floor_refused_total",
                            "Signed objects, heartbeats and variant records refused as older than a version already accepted.",
                            s.floor().refused())
                    .counter("riptide_node_tree_updates_refused_total",
                            "Versions a dissemination tree brought that were refused before replacing a replica (forged, older, junk).",
                            s.floor().updatesRefused())
                    .counter("riptide_node_tombstones_total", "Genuine tombstones (purges) taken in place of a replica.",
                            s.floor().tombstones())
                    .counter("riptide_node_tombstones_refused_total", "Tombstones refused: forged, relabelled or older.",
                            s.floor().tombstonesRefused());
        }
        m.gauge("riptide_node_revoked_keys", "Provider keys this node has learned are revoked.", s.keys().revoked())
                .counter("riptide_node_key_revocations_total",
                        "Revocation bundles a dissemination tree brought that verified (a revoked key's replica is replaced).",
                        s.keys().bundles())
                .counter("riptide_node_key_revocations_refused_total",
                        "Key-record bundles a tree brought that were refused (undecodable, forged, revoking nothing).",
                        s.keys().bundlesRefused())
                .counter("riptide_node_key_records_refused_total",
                        "Single rotation or revocation records refused: bad signature, or a signer without standing.",
                        s.keys().recordsRefused())
                .counter("riptide_node_revoked_versions_refused_total",
                        "Versions a tree brought that were refused as signed by a revoked key.", s.keys().versionsRefused())
                .counter("riptide_node_revoked_replicas_dropped_total",
                        "Replicas dropped from the store because the key that signed them was revoked.",
                        s.keys().replicasDropped());
        RedundantReadStats r = s.verifiedReads();
        m.counter("riptide_node_verified_reads_total",
                        "Reads made verified (for clients where salted roots are on): a copy failing the provider's "
                                + "signature check is never handed on.", r.reads())
                .counter("riptide_node_verified_reads_widened_total",
                        "Verified reads whose plain attempt failed, lied or was late, so that more routes, the roots' "
                                + "lists of holders and those holders were tried.", r.widened())
                .counter("riptide_node_verified_reads_forged_refused_total",
                        "Answers to verified reads refused because their bytes failed the check (forged or stale).",
                        r.refused());
        if (s.disk() != null) {
            DiskStats.Snapshot d = s.disk();
            m.counter("riptide_store_disk_flushes_total", "Write-buffer flushes completed by the disk tier.", d.flushes())
                    .counter("riptide_store_disk_written_bytes_total", "Bytes the disk tier wrote.", d.writtenBytes())
                    .counter("riptide_store_disk_reads_total", "Positioned reads (seeks) of the disk tier.", d.diskReads())
                    .counter("riptide_store_disk_refused_records_total",
                            "Records read from disk and refused (stale generation, torn or corrupt).",
                            d.staleRefusals() + d.corruptRefusals())
                    .counter("riptide_store_disk_evictions_total", "Records the disk tier dropped to make room.", d.evictions())
                    .counter("riptide_store_disk_checkpoints_total", "Index checkpoints written.", d.checkpoints());
        }
        m.counter("riptide_transport_connections_total", "Peer connections opened, by direction.", "direction",
                        ordered("in", t.connectionsIn(), "out", t.connectionsOut()))
                .gauge("riptide_transport_open_connections", "Peer connections open now.", t.openConnections())
                .gauge("riptide_transport_unauthenticated_connections",
                        "Inbound peer connections open now whose peer has not yet proved its key.",
                        t.unauthenticatedConnections())
                .counter("riptide_transport_connections_refused_total",
                        "Inbound connections closed before reading, by the cap on unauthenticated connections they met.",
                        "cap", ordered("per-source", t.refusedOverSourceCap(), "total", t.refusedOverTotalCap()))
                .counter("riptide_transport_handshakes_failed_total", "Connections refused for a failed handshake.",
                        t.handshakesFailed())
                .counter("riptide_transport_handshakes_timed_out_total",
                        "Of the failed handshakes, those with no valid proof by the handshake timeout.", t.handshakesTimedOut())
                .counter("riptide_transport_handshakes_version_refused_total",
                        "Of the failed handshakes, those whose peer speaks no wire version this node speaks.",
                        t.handshakesVersionRefused())
                .counter("riptide_transport_handshakes_address_refused_total",
                        "Of the failed handshakes, those whose peer advertised an address its connection does not prove "
                                + "(another IP than it connects from, or than the one dialed).",
                        t.handshakesAddressRefused())
                .counter("riptide_transport_frames_refused_total", "Connections closed for a bad frame.", t.framesRefused())
                .counter("riptide_transport_handshake_frames_refused_total",
                        "Of the refused frames, those announced longer than a handshake frame may be, before the handshake.",
                        t.framesOverHandshakeCap())
                .counter("riptide_transport_frames_failed_authentication_total",
                        "Of the refused frames, those that failed authentication after the handshake: altered, forged, "
                                + "replayed or reordered.",
                        t.framesFailedAuthentication())
                .counter("riptide_transport_messages_sent_total", "Messages written to peers.", t.messagesSent())
                .counter("riptide_transport_messages_received_total", "Messages received from authenticated peers.",
                        t.messagesReceived())
                .counter("riptide_transport_messages_dropped_total", "Messages not sent or not delivered.", t.messagesDropped())
                .counter("riptide_transport_received_bytes_total", "Bytes read from peer sockets.", t.bytesIn())
                .counter("riptide_transport_sent_bytes_total", "Bytes handed to peer sockets.", t.bytesOut());
        StageFamilies.add(m, stages.values());
        return b.build();
    }

    private static Map<String, Number> ordered(String k1, long v1, String k2, long v2) {
        Map<String, Number> out = new LinkedHashMap<>();
        out.put(k1, v1);
        out.put(k2, v2);
        return out;
    }

    private static String listed(int shown, int total) {
        return shown < total ? "showing " + shown + " of " + total : total + " in all";
    }

    /** An RTT or a duration in nanoseconds as milliseconds; "-" when unmeasured. */
    static String millis(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }

    static String uptime(Duration d) {
        long s = d.toSeconds();
        return s < 3600 ? String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60)
                : String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
    }

}
