package io.riptide.simulator.paper;

import java.util.List;

/** The paper's section-6 experiments, in the paper's order, with the figures of EXPERIMENTS.md. */
public final class PaperFigures {
    private PaperFigures() {
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
                                "riptide_bloom_failed"),
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
                        "≤ 1.1 × optimal at every replica count",
                        List.of("update_bytes_full", "update_bytes_delta"),
                        List.of("crossings.png")),
                new PaperFigure("push-caching", "Figs. 23–24",
                        "latency and throughput vs clients behind a 10 Mb/s origin link, with and without push",
                        "without push latency grows linearly once the link saturates; with push it stays flat",
                        "with push p95 flat across client counts; throughput ≥ 10 × no-push at the largest count",
                        List.of("throughput_ratio_at_largest", "p95_push_max_over_min", "throughput_ratio_recheck_at_largest"),
                        List.of("throughput.png", "p95-latency.png", "latency-cdf-push.png", "latency-cdf-nopush.png")));
    }
}
