package io.riptide.dolr.lease;

import io.riptide.core.runtime.NodeHandle;

/**
 * The outcome of claiming a lease: {@code granted} to this node, or held by {@code holder}. When the
 * root could not be asked in time, the result is granted with {@code answered} false: callers proceed
 * as if alone, which costs at most a duplicate effort, never a lost one.
 */
public record LeaseResult(boolean granted, NodeHandle holder, long remainingMillis, boolean answered) {
}
