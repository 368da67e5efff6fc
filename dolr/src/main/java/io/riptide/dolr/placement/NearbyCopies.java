package io.riptide.dolr.placement;

import io.riptide.core.runtime.NodeHandle;
import java.util.List;
import java.util.function.Consumer;

/** Whether a copy is already near this node: one of some holders within its local area's reach. */
@FunctionalInterface
public interface NearbyCopies {
    /** Hands {@code done} one of {@code holders} in this node's local area, or null once none is (once, either way). */
    void anyNear(List<NodeHandle> holders, Consumer<NodeHandle> done);
}
