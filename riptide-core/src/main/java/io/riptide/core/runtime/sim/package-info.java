/**
 * The simulated runtime: one deterministic event queue in virtual time ({@code Simulation}), hosts
 * that see it through the runtime seam ({@code SimEnv}), their stages on modelled cores, and the
 * network between them ({@code SimNetwork}): latency from a topology, links shared fairly between
 * host pairs ({@code SharedLink}), loss and partitions on demand.
 */
package io.riptide.core.runtime.sim;
