/**
 * The SEDA stages every simulated host runs, configured as over TCP and timed from measurements:
 * which stages there are ({@link io.riptide.simulator.stages.HostStages}) and what one event costs
 * on each ({@link io.riptide.simulator.stages.ServiceTimes}, with the commands that measured it).
 * Overload, shedding and a host's CPU limit in experiments come from these stages.
 */
package io.riptide.simulator.stages;
