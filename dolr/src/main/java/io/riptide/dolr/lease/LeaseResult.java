package io.riptide.dolr.lease;

import io.riptide.core.runtime.NodeHandle;

/**
 * The outcome of claiming a lease: {@code granted} to this node, or held by {@code holder}. When the
 * root could not be asked within the claim's budget (resends included), the result is granted with
 * {@code answered} false: unconfirmed. A caller may proceed as if alone only where a duplicate effort
 * is harmless; one that would create a second copy of something must not.
 */
public record LeaseResult(boolean granted, NodeHandle holder, long remainingMillis, boolean answered) {
}
