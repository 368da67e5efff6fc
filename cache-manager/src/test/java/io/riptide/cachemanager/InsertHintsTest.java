package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.dolr.location.LocateResult;
import io.riptide.gateway.Gateway;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Miss hints become one insert per URL; stale hints become re-checks, and ones that keep coming a monitor. */
class InsertHintsTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;

    @Test
    void fiftyMissHintsForOneUrlCauseOneOriginFetchAndTheObjectIsThen() {
        Stub stub = new Stub(1, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/missed";
        Id guid = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        int delivered = 0;
        LocateResult[][] results = new LocateResult[50][];
        for (int i = 0; i < 50; i++) {
            int client = GROUPS * (1 + i % 5); // the manager's stub: vertices 6, 12, 18, 24, 30
            results[i] = stub.hint(client, new MissHint(url, guid));
            stub.run(Duration.ofMillis(40));
        }
        stub.run(Duration.ofSeconds(10));
        for (LocateResult[] r : results) {
            if (r[0] != null && r[0].found()) {
                delivered++;
            }
        }
        assertEquals(50, delivered);
        assertEquals(50, stub.manager(MANAGER).hints());
        assertEquals(1, stub.manager(MANAGER).gateway().sent());
        assertEquals(1, stub.originFetches());
        assertEquals(1, stub.manager(MANAGER).gateway().outcomes(Outcome.INSERTED));
        LocateResult read = stub.read(12, guid);
        assertTrue(read.found(), "the inserted object is in the overlay");
    }

    /** {@code url} missed through each of {@code accessNodes} in turn, then {@code d} of virtual time; its GUID. */
    private static Id missed(Stub stub, String url, Duration d, int... accessNodes) {
        Id guid = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        for (int v : accessNodes) {
            stub.hint(v, new MissHint(url, guid));
        }
        stub.run(d);
        return guid;
    }

    @Test
    void whatTheStubMissedIsCopiedToItsManagerSoItsNextReadStaysInTheStub() {
        Stub stub = new Stub(4, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        Id guid = missed(stub, "http://example.com/copied", Duration.ofSeconds(10), 6, 18); // two access nodes of the stub

        assertEquals(1, stub.originFetches(), "one fetch, by the gateway");
        assertTrue(stub.node(MANAGER).replicas().contains(guid), "the manager's node holds a copy");
        assertEquals(1, stub.manager(MANAGER).insertedCopies().made());
        LocateResult read = stub.read(12, guid);
        assertTrue(read.found());
        assertEquals(12 % GROUPS, stub.groupOf(read), "read from the copy in the client's own stub, not the gateway's");
    }

    @Test
    void aMissFromACampusWithoutAManagerIsFilledOnTheNodeItCameFrom() {
        // Campuses big enough that a node's local area (its 16 nearest) lies inside its own.
        int groups = 4;
        Stub stub = new Stub(5, 120, groups, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        int far = 3; // group 3: neither the manager's group (0) nor the gateway's (1)
        int near = 8; // the manager's own group
        Id guid = missed(stub, "http://example.com/far-away", Duration.ofSeconds(15), far, near);

        assertTrue(stub.node(MANAGER).replicas().contains(guid), "the manager's own copy");
        assertTrue(stub.node(far).replicas().contains(guid), "a copy where the far miss came from");
        assertFalse(stub.node(near).replicas().contains(guid), "the manager's copy serves its own campus");
        assertEquals(1, stub.manager(MANAGER).insertedCopies().remoteMade());
        assertEquals(1, stub.originFetches());
        assertEquals(3, stub.groupOf(stub.read(7, guid)), "the far campus reads inside itself");
    }

    @Test
    void whatOneAccessNodeAloneMissedIsNotCopied() {
        Stub stub = new Stub(4, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        Id guid = missed(stub, "http://example.com/once", Duration.ofSeconds(10), 6, 6);

        assertEquals(1, stub.originFetches());
        assertFalse(stub.node(MANAGER).replicas().contains(guid), "one proxy's own miss is its own tiers' to keep");
        assertEquals(0, stub.manager(MANAGER).insertedCopies().made());
    }

    @Test
    void withCopyInsertsOffOnlyTheGatewayHoldsWhatItInserted() {
        Stub stub = new Stub(4, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults().withCopyInserts(false), MANAGER);
        Id guid = missed(stub, "http://example.com/copied", Duration.ofSeconds(10), 6, 18);

        assertFalse(stub.node(MANAGER).replicas().contains(guid));
        assertEquals(0, stub.manager(MANAGER).insertedCopies().made());
        assertEquals(GATEWAY % GROUPS, stub.groupOf(stub.read(12, guid)), "read from the gateway's stub");
    }

    @Test
    void missHintsForAUrlAfterTheWindowAskAgain() {
        Stub stub = new Stub(2, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/again";
        Id guid = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        stub.hint(6, new MissHint(url, guid));
        stub.hint(12, new MissHint("http://example.com/other", Id.hash("other")));
        stub.run(Duration.ofSeconds(11));
        stub.hint(6, new MissHint(url, guid));
        stub.run(Duration.ofSeconds(5));
        assertEquals(3, stub.manager(MANAGER).gateway().sent());
    }

    @Test
    void staleBurstsAreOneRecheckEachAndKeepGoingStaleInstallsAMonitor() {
        Stub stub = new Stub(3, NODES, GROUPS, GATEWAY, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/changing";
        Id guid = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");
        Gateway gateway = stub.gateway();
        for (int burst = 0; burst < 3; burst++) {
            assertEquals(0, gateway.monitors().size(), "no monitor before the third re-check");
            for (int i = 0; i < 10; i++) {
                stub.hint(GROUPS * (1 + i % 5), new StaleHint(url, guid, burst));
                stub.run(Duration.ofMillis(50));
            }
            stub.run(Duration.ofSeconds(11));
        }
        assertEquals(3, stub.manager(MANAGER).gateway().sent(), "each burst of stale hints is one re-check");
        assertEquals(1, gateway.monitors().size(), "the gateway now monitors the URL and pushes its updates");
    }
}
