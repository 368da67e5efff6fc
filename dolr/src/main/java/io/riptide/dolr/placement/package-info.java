/**
 * Replicas where an agent wants them: {@link io.riptide.dolr.placement.Placement} (the paper's
 * advanced primitive, a replica k hops up the object's routing tree), {@link
 * io.riptide.dolr.placement.Replication} (a copy on a chosen node, declined when a named holder is in
 * that node's local area, and retired only by its requester), {@link
 * io.riptide.dolr.placement.RemoteDistances} (round trips measured by another node, to compare where a
 * group of readers is nearest), the digest-first {@link io.riptide.dolr.placement.ReplicaCopier}, and
 * {@link io.riptide.dolr.placement.MasterForwarding} (a store's evicted last copy in the local area
 * goes to a neighbour rather than out of the stub).
 */
package io.riptide.dolr.placement;
