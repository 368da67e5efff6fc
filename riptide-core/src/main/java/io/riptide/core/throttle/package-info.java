/**
 * Rate limits shared by the agents: {@link io.riptide.core.throttle.Throttle}, how often a key (a URL,
 * a GUID) may pass within a window, on the caller's clock.
 */
package io.riptide.core.throttle;
