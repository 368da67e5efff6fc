/**
 * Staying in the overlay: joining through any member, leaf-set heartbeats and repair, leases on
 * routing-table entries, failure detection by bounded probes ({@code Prober}), and proximity
 * maintenance. Nodes enter the routing state only within the per-source limit, and a handle learned
 * second-hand only once a probe of its address is answered by its ID from that address.
 */
package io.riptide.dolr.membership;
