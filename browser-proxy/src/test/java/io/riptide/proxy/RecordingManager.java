package io.riptide.proxy;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A stand-in cache manager: offers the provider's cache-manager service and keeps every hint of type {@code T} it gets. */
final class RecordingManager<T extends WireMessage> implements OverlayApplication {
    final List<T> hints = new CopyOnWriteArrayList<>();
    private final OverlayNode node;
    private final Id service;
    private final Class<T> type;

    RecordingManager(OverlayNode node, Id service, Class<T> type) {
        this.node = node;
        this.service = service;
        this.type = type;
    }

    @Override
    public void onJoined() {
        node.offerService(service);
    }

    @Override
    public void deliverToObject(Id guid, WireMessage payload, NodeHandle requester, long requestId, int hops) {
        if (guid.equals(service) && type.isInstance(payload)) {
            hints.add(type.cast(payload));
        }
    }
}
