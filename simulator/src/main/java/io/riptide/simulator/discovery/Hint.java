package io.riptide.simulator.discovery;

/**
 * One hint a client sent to the cache-manager service.
 *
 * @param client     the sending vertex
 * @param sentNanos  virtual time of sending, from the start of the hint traffic
 * @param manager    index (in start order) of the manager that received it, or -1 if none did
 */
public record Hint(int client, long sentNanos, int manager) {
    /** Whether some manager received it. */
    public boolean delivered() {
        return manager >= 0;
    }
}
