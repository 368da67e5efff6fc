package io.riptide.cachemanager.replicas;

/** Where a cache manager puts the replica a slow hit asks for (the paper's two primitives, section 4.3). */
public enum PlacementPolicy {
    /** On the manager's own node: read the object and store it there (the simple primitive). */
    LOCAL,
    /** k hops up the object's routing tree from the manager, with {@code place(guid, k)} (the advanced primitive). */
    CLIMB
}
