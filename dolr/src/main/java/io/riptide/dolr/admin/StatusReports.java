package io.riptide.dolr.admin;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Asks every source for its part at once and assembles the report, failing if one is slower than a deadline. */
public final class StatusReports {
    private final String title;
    private final List<StatusSource> sources;
    private final Duration deadline;

    public StatusReports(String title, List<StatusSource> sources, Duration deadline) {
        this.title = title;
        this.sources = List.copyOf(sources);
        this.deadline = deadline;
    }

    public String title() {
        return title;
    }

    /** The report now; fails if a source fails or does not answer within the deadline. */
    public CompletableFuture<StatusReport> collect() {
        List<CompletableFuture<ReportPart>> parts = new ArrayList<>(sources.size());
        for (StatusSource s : sources) {
            CompletableFuture<ReportPart> part;
            try {
                part = s.report();
            } catch (RuntimeException e) {
                part = CompletableFuture.failedFuture(e);
            }
            // A copy, so the timeout does not complete the source's own future.
            parts.add(part.copy().orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS));
        }
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(ignored -> new StatusReport(title, parts.stream().map(CompletableFuture::join).toList()));
    }
}
