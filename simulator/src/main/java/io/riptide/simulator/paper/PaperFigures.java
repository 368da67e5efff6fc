package io.riptide.simulator.paper;

import java.util.List;

/** The paper's section-6 experiments, in the paper's order, with the figures of EXPERIMENTS.md. */
public final class PaperFigures {
    private PaperFigures() {
    }

    /** The figure for scenario {@code name}, from the paper's set or ours beyond it. */
    public static java.util.Optional<PaperFigure> find(String name) {
        return java.util.stream.Stream.concat(all().stream(), beyond().stream()).filter(f -> f.scenario().equals(name)).findFirst();
    }

    /** Our experiments beyond the paper's (EXPERIMENTS.md), reported the same way. */
    public static List<PaperFigure> beyond() {
        return List.of(
                new PaperFigure("routing-scale", "beyond the paper", "hops and RDP of routing and location for N nodes",
                        "(Tapestry's own papers: RDP small, hops about log16 N)",
                        "mean hops ≤ log16 N + 0.5; median RDP ≤ 1.5; every lookup for a published object succeeds",
                        List.of("route_success_rate", "route_mean_hops", "route_p50_rdp", "locate_success_rate",
                                "local_locate_p50_rdp", "local_locate_p50_rdp_no_bloom"),
                        List.of("rdp-cdf.png", "route-hops.png")),
                new PaperFigure("churn", "beyond the paper", "lookups while a share of the nodes fails at once",
                        "-", "≥ 99% success with 20% failed at once; routing repaired within 30 s",
                        List.of("lookup_success_after_failure", "repair_time_s", "leafset_repair_time_s"),
                        List.of("repair.png")),
                new PaperFigure("trace-replay", "beyond the paper",
                        "hit ratio replaying a real trace: Riptide vs one shared cache vs per-client caches",
                        "(published proxy studies: an infinite cache reaches about 0.65 on this trace's stream)",
                        "Riptide within 2 points of the single shared cache of the same total size",
                        List.of("hit_ratio", "byte_hit_ratio", "shared_proxy_hit_ratio", "shared_proxy_byte_hit_ratio",
                                "per_client_hit_ratio"),
                        List.of("hit-ratios.png", "hit-ratio-over-time.png")),
                new PaperFigure("origin-shield", "beyond the paper",
                        "many proxies in many stubs ask for the same documents at the same moment",
                        "(CoralCDN: 166 proxies, one origin fetch per document)", "origin fetches ≤ one per document",
                        List.of("origin_fetches", "origin_fetches_per_document", "second_wave_hit_ratio"),
                        List.of("waves.png")));
    }

    /** Every figure the {@code paper} run redraws. */
    public static List<PaperFigure> all() {
        return List.of(
                new PaperFigure("service-location", "Fig. 15",
                        "RTT from each client to a static proxy vs to the cache manager found through the DOLR",
                        "proxy mostly < 50 ms; via Tapestry up to 200 ms; Bloom filters < 50 ms for some clients",
                        "for 90% of clients the located manager's RTT ≤ 1.25 × the nearest manager's",
                        List.of("share_within_1_25x_nearest", "share_within_1_25x_nearest_tapestry"),
                        List.of("rtt-cdf.png")),
                new PaperFigure("hit-latency", "Fig. 16",
                        "latency to locate and retrieve a cached document: proxy cache vs Riptide without and with Bloom filters",
                        "proxy: 80% of hits < 50 ms; Riptide: 80% < 120 ms; CDF never reaches 1.0 (GC stalls)",
                        "Riptide with Bloom filters: p80 ≤ the proxy cache's; CDF reaches 1.0",
                        List.of("proxy_cache_p80_ms", "riptide_p80_ms", "riptide_bloom_p80_ms", "riptide_bloom_max_ms",
                                "manager_direct_p80_ms", "riptide_bloom_failed"),
                        List.of("hit-latency-cdf.png")),
                new PaperFigure("service-discovery", "Fig. 17",
                        "hints received per cache manager per 10 s interval as managers join at 0, 5 and 10 min",
                        "traffic shifts to the new, closer manager; the third takes about half",
                        "within one interval of a manager joining, ≥ 90% of its nearest clients' hints reach it",
                        List.of("shift_interval_s", "shift_interval_s_manager2", "shift_interval_s_manager3"),
                        List.of("hints-per-interval.png")),
                new PaperFigure("flash-crowd", "Fig. 18",
                        "a sudden crowd on one document; requests served per replica per interval",
                        "each new replica starts serving at once; uneven split because load came from 5 places",
                        "each new replica serves in its first interval; origin fetches ≤ 1 per stub",
                        List.of("first_interval_requests_per_new_replica", "origin_fetches_hot_doc", "stubs"),
                        List.of("replica-load.png")),
                new PaperFigure("placement-load", "Fig. 19",
                        "requests served per node over 150 s, local vs climb-k placement",
                        "climb-k spreads load over many nodes instead of one",
                        "the busiest node under climb-k serves ≤ 1/4 of the single node under local placement",
                        List.of("max_node_requests_local", "max_node_requests_climb"),
                        List.of("requests-per-node.png")),
                new PaperFigure("dissemination", "Fig. 22",
                        "inter-domain crossings to build a dissemination tree vs replicas, against the optimum",
                        "fewer crossings than direct fetches, more than optimal",
                        "≤ 1.1 × optimal at every replica count, every replica attached and updated",
                        List.of("replicas_unattached", "replicas_not_updated", "creation_crossings", "update_bytes_full", "update_bytes_delta"),
                        List.of("crossings.png", "creation-crossings.png")),
                new PaperFigure("push-caching", "Figs. 23–24",
                        "latency and throughput vs clients behind a 10 Mb/s origin link, with and without push",
                        "without push latency grows linearly once the link saturates; with push it stays flat",
                        "with push p95 flat across client counts (at most 1.5 x the p95 at the fewest); throughput ≥ 10 × no-push at the largest count",
                        List.of("throughput_ratio_at_largest", "p95_push_growth", "p95_push_max_over_min", "throughput_ratio_recheck_at_largest"),
                        List.of("throughput.png", "p95-latency.png", "latency-cdf-push.png", "latency-cdf-nopush.png")));
    }
}
