package io.riptide.core.stage;

/**
 * A snapshot of one stage's load and history, for status pages and benchmarks.
 *
 * <p>Counters are read one after another without a lock, so a snapshot taken under load may be off
 * by the events that moved meanwhile; once the stage is quiet, {@code accepted == completed + failed}.
 *
 * @param name the stage
 * @param queueLength events waiting now
 * @param threads workers alive now
 * @param accepted events admitted since start
 * @param refused events refused at the door by admission control (queue full or stage closed)
 * @param completed events whose work returned a result
 * @param failed events whose work threw
 * @param meanWaitNanos mean time an event waited in the queue before a worker took it
 * @param maxWaitNanos longest such wait
 * @param meanServiceNanos mean time a worker spent on an event's work
 * @param maxServiceNanos longest such time
 * @param throughputPerSecond events finished (completed or failed) per second since the stage started
 * @param shed events taken from the queue and dropped unserved because they had waited too long (a {@link WaitLimit});
 *     0 for a stage that sheds only at the door
 * @param waited events that left the queue (served or shed), over which {@code waitTotalNanos} is summed
 * @param waitTotalNanos the time those events spent queued, summed: with {@code waited}, the wait's
 *     {@code _sum} and {@code _count} for a monitoring system to take rates of
 */
public record StageMetrics(
        String name,
        int queueLength,
        int threads,
        long accepted,
        long refused,
        long completed,
        long failed,
        long meanWaitNanos,
        long maxWaitNanos,
        long meanServiceNanos,
        long maxServiceNanos,
        double throughputPerSecond,
        long shed,
        long waited,
        long waitTotalNanos) {

    /** Events finished, successfully or not. */
    public long finished() {
        return completed + failed;
    }
}
