/**
 * Prefix routing, Pastry's way: the routing table and leaf set, the next-hop rule ({@code Router}),
 * per-hop acknowledgements ({@code HopSender}) and the forwarder that re-routes around a hop that
 * went unanswered. Pure state and rules; the protocol parts that fill them live in
 * {@code membership}.
 */
package io.riptide.dolr.routing;
