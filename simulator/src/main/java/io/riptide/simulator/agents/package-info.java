/**
 * The shipped agents on simulated nodes, and the world around them: gateways and cache managers
 * ({@link io.riptide.simulator.agents.Agents}), browser proxies running the shipped proxy's cache
 * ({@link io.riptide.simulator.agents.SimulatedProxy}), web servers behind their links
 * ({@link io.riptide.simulator.agents.SimulatedOrigin}) and the users who send requests.
 */
package io.riptide.simulator.agents;
