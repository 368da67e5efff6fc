package io.riptide.cachemanager.replicas;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.id.Id;
import io.riptide.dolr.OverlayNode;
import java.util.HashSet;
import java.util.Set;

/**
 * What this manager's proxies missed, copied to its own node once a gateway holds it
 * ({@link CacheManagerConfig#copyInserts}). Without it the only copy is the gateway's, in the
 * gateway's stub, and every later request of this stub crosses two uplinks to reach it: in a crowd,
 * one uplink carries every stub's reads at once (origin-shield's second wave, with the paper's
 * 1.5 Mb/s links). With it, the stub that asked serves itself, as a CDN's edge fills on a miss.
 * An answer for an object this node holds already, or is copying, costs nothing.
 */
public final class InsertedCopies {
    /** Tries at one copy: the first, and two more a locate deadline, then two, later. */
    static final int ATTEMPTS = 3;

    private final OverlayNode node;
    private final boolean enabled;
    private final Set<Id> copying = new HashSet<>();
    private long made;
    private long failures;

    public InsertedCopies(OverlayNode node, CacheManagerConfig config) {
        this.node = node;
        this.enabled = config.copyInserts();
    }

    /** A gateway's answer to one of this manager's insert requests. */
    public void onAnswer(InsertReply reply) {
        boolean held = reply.outcome() == Outcome.INSERTED || reply.outcome() == Outcome.UNCHANGED;
        Id guid = reply.guid();
        if (!enabled || !held || guid.equals(Id.ZERO) || node.replicas().contains(guid) || !copying.add(guid)) {
            return;
        }
        copy(guid, 1);
    }

    private void copy(Id guid, int attempt) {
        LocalCopy.make(node, guid, stored -> {
            if (stored) {
                copying.remove(guid);
                made++;
            } else if (attempt < ATTEMPTS) {
                // Most often the gateway's publish had not reached the root yet when its answer came, or the
                // read was lost in a crowd: the copy is worth a later try.
                node.env().schedule(node.config().locateDeadline().multipliedBy(attempt), () -> copy(guid, attempt + 1));
            } else {
                copying.remove(guid);
                failures++;
            }
        });
    }

    /** Inserted objects copied to this node. */
    public long made() {
        return made;
    }

    /** Copies that failed after every attempt (no replica answered in time, or no room). */
    public long failures() {
        return failures;
    }
}
