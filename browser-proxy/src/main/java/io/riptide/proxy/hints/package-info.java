/**
 * What the browser proxy tells cache managers: miss, stale and latency hints ({@link io.riptide.proxy.hints.Hints})
 * and its per-object load ({@link io.riptide.proxy.hints.LoadReports}). Protocol code over the runtime seam and
 * the overlay-access interface, run by the real proxy and the simulator alike.
 */
package io.riptide.proxy.hints;
