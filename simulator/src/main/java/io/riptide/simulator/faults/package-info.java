/**
 * The fault-injection suite, FoundationDB-style: a {@link io.riptide.simulator.faults.FaultPlan}
 * drawn from the seed (message loss, duplication and reordering, partitions that heal, node crashes
 * and restarts on their disks, clock skew, slow disks), a
 * {@link io.riptide.simulator.faults.FaultInjector} that applies it to a simulated overlay through the
 * runtime's seams, and invariant checks ({@link io.riptide.simulator.faults.Invariant}) that watch,
 * throughout the run, what users and peers would see: the bytes proxies are served, the copies
 * nodes hold, the updates that reach them, the leaf sets. The {@code faults} scenario puts them
 * together; a seed replays exactly.
 */
package io.riptide.simulator.faults;
