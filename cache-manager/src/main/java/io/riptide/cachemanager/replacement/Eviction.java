package io.riptide.cachemanager.replacement;

/**
 * What to do to make room: drop {@code victim}, or, when {@code forwardTo} is not null, move it to
 * that peer (which drops its own oldest replica to take it) because it is the stub's last copy.
 *
 * @param <P> how the caller names its peers
 */
public record Eviction<P>(CachedReplica victim, P forwardTo) {
    public boolean forwards() {
        return forwardTo != null;
    }
}
