package io.riptide.simulator.hostile;

/** What the hostile nodes of one run did, all of them together (one simulation, one thread). */
public final class HostileTally {
    long dropped;
    long misrouted;
    long withheld;
    long forgedSent;
    long publishesDropped;
    long falsePointers;

    public long dropped() {
        return dropped;
    }

    public long misrouted() {
        return misrouted;
    }

    public long withheld() {
        return withheld;
    }

    public long forgedSent() {
        return forgedSent;
    }

    public long publishesDropped() {
        return publishesDropped;
    }

    public long falsePointers() {
        return falsePointers;
    }
}
