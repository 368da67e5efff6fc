/**
 * Hostile peers for simulations: nodes that run the shipped overlay code for membership (so they
 * hold routing-table and leaf-set places like any node) but, through the simulated overlay's
 * interceptor seam, drop, misroute, withhold and lie about what location asks of them.
 */
package io.riptide.simulator.hostile;
