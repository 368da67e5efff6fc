package io.riptide.simulator.workload;

/** One request of a web client trace: when, by whom (and in which lab), for what, and how big the answer was. */
public record TraceRequest(long timeMicros, String user, String group, String url, long bytes) {
}
