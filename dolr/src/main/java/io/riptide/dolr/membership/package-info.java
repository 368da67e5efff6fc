/**
 * Staying in the overlay: joining through any member, leaf-set heartbeats and repair, leases on
 * routing-table entries, failure detection by bounded probes ({@code Prober}), and proximity
 * maintenance.
 */
package io.riptide.dolr.membership;
