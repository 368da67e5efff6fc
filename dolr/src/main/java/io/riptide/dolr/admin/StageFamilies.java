package io.riptide.dolr.admin;

import io.riptide.core.stage.StageMetrics;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The {@code riptide_stage_*} metric families of a process's SEDA stages, one sample per stage: written the same way
 * by a node and by the browser proxy, so one dashboard and one alert serve both.
 */
public final class StageFamilies {
    private StageFamilies() {
    }

    /** Adds every stage family to {@code m}, with a sample for each of {@code stages}. */
    public static void add(MetricSet m, Collection<StageMetrics> stages) {
        m.gauge("riptide_stage_queue_length", "Events waiting in each stage's queue.", "stage", per(stages, StageMetrics::queueLength))
                .gauge("riptide_stage_threads", "Workers alive in each stage (for the proxy's origin stage: connections in use).",
                        "stage", per(stages, StageMetrics::threads))
                .counter("riptide_stage_accepted_total", "Events admitted by each stage.", "stage", per(stages, StageMetrics::accepted))
                .counter("riptide_stage_refused_total", "Events refused at the door by each stage's admission control (queue full).",
                        "stage", per(stages, StageMetrics::refused))
                .counter("riptide_stage_shed_total", "Events dropped unserved after waiting longer than each stage's wait limit.",
                        "stage", per(stages, StageMetrics::shed))
                .counter("riptide_stage_failed_total", "Events whose work threw.", "stage", per(stages, StageMetrics::failed))
                .summary("riptide_stage_wait_seconds", "Time events spent in each stage's queue before a worker took them or "
                        + "they were shed.", "stage", per(stages, x -> x.waitTotalNanos() / 1e9), per(stages, StageMetrics::waited))
                .gauge("riptide_stage_mean_wait_seconds", "Mean time an event waited in each stage's queue, since start.", "stage",
                        per(stages, x -> x.meanWaitNanos() / 1e9))
                .gauge("riptide_stage_mean_service_seconds", "Mean time each stage's work took.", "stage",
                        per(stages, x -> x.meanServiceNanos() / 1e9));
    }

    private static Map<String, Number> per(Collection<StageMetrics> stages, Function<StageMetrics, Number> figure) {
        Map<String, Number> out = new LinkedHashMap<>();
        stages.forEach(s -> out.put(s.name(), figure.apply(s)));
        return out;
    }
}
