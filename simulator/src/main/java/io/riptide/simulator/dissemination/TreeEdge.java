package io.riptide.simulator.dissemination;

/** One parent-to-child edge of a dissemination tree, as simulated vertices. */
public record TreeEdge(int parent, int child) {
}
