package io.riptide.simulator.paper;

import java.util.List;
import java.util.Map;

/**
 * For each scenario, the {@code result.json} fields its target is judged on: what a multi-seed
 * summary shows for every seed beside the verdict. Read off each scenario's {@code target_met}
 * computation (or its {@code targets} bounds where it gives no verdict); keep in step when a target
 * changes. A scenario not listed shows its verdict alone.
 */
public final class TargetFields {
    private static final Map<String, List<String>> FIELDS = Map.ofEntries(
            Map.entry("service-location", List.of("share_within_1_25x_nearest")),
            Map.entry("hit-latency", List.of("riptide_bloom_p80_ms", "proxy_cache_p80_ms", "riptide_bloom_failed")),
            Map.entry("service-discovery", List.of("shift_interval_s", "shift_interval_s_manager2", "shift_interval_s_manager3")),
            Map.entry("flash-crowd", List.of("first_interval_requests_per_new_replica", "origin_fetches_hot_doc", "stubs")),
            Map.entry("placement-load", List.of("max_node_requests_local", "max_node_requests_climb", "busiest_ratio")),
            Map.entry("dissemination", List.of("max_ratio", "replicas_unattached", "replicas_not_updated")),
            Map.entry("push-caching", List.of("p95_push_growth", "p95_push_max_over_min", "throughput_ratio_at_largest")),
            Map.entry("origin-shield", List.of("origin_fetches", "documents")),
            Map.entry("trace-replay", List.of("hit_ratio", "equal_storage_shared_proxy_hit_ratio", "byte_hit_ratio",
                    "equal_storage_shared_proxy_byte_hit_ratio")),
            Map.entry("routing-scale", List.of("route_mean_hops", "route_p50_rdp", "local_locate_p50_rdp", "locate_success_rate")),
            Map.entry("churn", List.of("lookup_success_after_failure", "repair_time_s")),
            Map.entry("faults", List.of("invariants_violated", "violations", "faults_injected_total", "replay")),
            Map.entry("hostile", List.of("client_read_success_rate", "forged_bytes_served", "plain_read_success_rate")),
            Map.entry("paper", List.of("figures", "targets_met")));

    private TargetFields() {
    }

    /** The fields {@code scenario}'s target reads, in the order to show them; empty if none are known. */
    public static List<String> of(String scenario) {
        return FIELDS.getOrDefault(scenario, List.of());
    }
}
