package io.riptide.gateway.insert;

import io.riptide.core.object.CachedCopy;

/** The newest version of an object this gateway knows of, with what it needs to refresh it. */
record Known(CachedCopy copy) {
    long version() {
        return copy.object().certificate().version();
    }
}
