package io.riptide.cachemanager.replacement;

import io.riptide.core.id.Id;

/**
 * One replica a cache in a stub holds, as replacement sees it.
 *
 * @param lastUsedNanos when it last served a request (its LRU age)
 * @param master        whether it is the stub's last copy: no other cache in the stub holds the object
 */
public record CachedReplica(Id guid, long lastUsedNanos, boolean master) {
}
