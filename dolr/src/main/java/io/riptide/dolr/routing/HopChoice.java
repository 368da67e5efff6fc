package io.riptide.dolr.routing;

/**
 * Which candidate of a routing-table slot a message moves on through. Both rules reach the same
 * root; they differ in the path.
 */
public enum HopChoice {
    /**
     * The slot's nearest candidate: Pastry's and Tapestry's rule. Routes toward one key from nearby
     * nodes take the same primaries and meet early, which location relies on: a locate meets the
     * pointers a nearby replica's publish left on the way, and a placement climbs the path locates
     * take.
     */
    NEAREST,
    /**
     * Of the slot's candidates within {@link Router#NEAR_ENOUGH} times the nearest one's RTT, the
     * one numerically closest to the key (proximity route selection). In the deep rows a slot holds
     * nearly every node with its prefix, so that one is often the key's root and the route saves its
     * last, long hop. For messages that only need to reach the root.
     */
    NEAR_CLOSEST_TO_KEY
}
