package io.riptide.cachemanager.replicas;

import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The paper's simple primitive: a replica on the manager's own node, copied from the nearest one and
 * attached under it in the object's tree, so the object's updates reach the new copy too.
 */
final class LocalCopy {
    private LocalCopy() {
    }

    /** Copies {@code guid} to {@code node}; {@code done} hears whether it is stored there now. */
    static void make(OverlayNode node, Id guid, Consumer<Boolean> done) {
        make(node, guid, (stored, elapsed) -> done.accept(stored));
    }

    /** As {@link #make(OverlayNode, Id, Consumer)}, also telling how long the read took, in nanoseconds. */
    static void make(OverlayNode node, Id guid, BiConsumer<Boolean, Long> done) {
        node.read(guid, node.config().defaultTtl(), r -> {
            boolean stored = r.found() && r.data() != null && node.storeReplica(guid, r.data());
            if (stored) {
                node.joinTree(guid, r.replica());
            }
            done.accept(stored, r.elapsedNanos());
        });
    }
}
