/**
 * Replicas where an agent wants them: {@link io.riptide.dolr.placement.Placement} (the paper's
 * advanced primitive, a replica k hops up the object's routing tree), {@link
 * io.riptide.dolr.placement.Replication} (a copy on a chosen node, declined when a named holder is in
 * that node's local area, and retired only by its requester), {@link
 * io.riptide.dolr.placement.RemoteDistances} (round trips measured by another node, to compare where a
 * group of readers is nearest) and the digest-first {@link io.riptide.dolr.placement.ReplicaCopier}.
 */
package io.riptide.dolr.placement;
