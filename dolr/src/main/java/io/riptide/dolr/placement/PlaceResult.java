package io.riptide.dolr.placement;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;

/** How a placement ended: the node now holding the replica and how far up it is, or why it failed. */
public record PlaceResult(Id guid, boolean ok, NodeHandle where, int hops, String reason) {
}
