package io.riptide.simulator.placement;

/** Where a cache manager puts the replicas it creates. */
public enum PlacementMode {
    /** On the manager's own node: the only primitive the paper's system had at first. */
    LOCAL,
    /** {@code place(guid, k)}: k hops up the object's routing tree from the requesting client. */
    CLIMB;

    /** Lower-case name, as used in result keys and file names. */
    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
