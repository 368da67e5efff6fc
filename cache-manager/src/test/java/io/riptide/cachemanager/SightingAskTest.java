package io.riptide.cachemanager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cachemanager.sim.Stub;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.hint.HintMessages.SightingAnswer;
import io.riptide.core.hint.HintMessages.SightingAsk;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.wire.Answer;
import io.riptide.dolr.location.LocateResult;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The second-sight policy's questions, as proxies on overlay nodes ask them (in simulation, a real
 * cache manager and gateway): the stub's manager answers whether a variant was seen before and
 * asks the gateway for nothing itself; the proxy that is told "seen" has the gateway fetch it, and
 * that one fetch inserts it, so the next proxy reads it from the overlay.
 */
class SightingAskTest {
    private static final int NODES = 36;
    private static final int GROUPS = 6;
    private static final int GATEWAY = 1;
    private static final int MANAGER = 0;
    private static final Duration WAIT = Duration.ofSeconds(5);

    private static Optional<Answer> ask(Stub stub, int vertex, Id service, io.riptide.core.wire.Question question) {
        @SuppressWarnings("unchecked")
        Optional<Answer>[] out = new Optional[1];
        stub.node(vertex).ask(service, question, stub.node(vertex).config().defaultTtl(), WAIT, a -> out[0] = a);
        stub.run(WAIT.plusSeconds(1));
        assertTrue(out[0] != null, "every question is answered or given up on within its deadline");
        return out[0];
    }

    @Test
    void theManagerSaysWhetherAVariantWasSeenAndTheGatewaysOneFetchAnswersTheSecondSighting() {
        Stub stub = new Stub(11, NODES, GROUPS, GATEWAY, false, CacheManagerConfig.defaults(), MANAGER);
        String url = "http://example.com/seen";
        Id base = ObjectNames.objectGuid(stub.provider.publicKey(), url, "");

        Optional<Answer> first = ask(stub, 6, stub.managerService, new SightingAsk(7, url, base, Headers.EMPTY));
        assertEquals(Optional.of(true), first.map(a -> ((SightingAnswer) a).first()), "the first sighting");
        Optional<Answer> second = ask(stub, 12, stub.managerService, new SightingAsk(8, url, base, Headers.EMPTY));
        assertEquals(Optional.of(false), second.map(a -> ((SightingAnswer) a).first()), "another proxy's sighting of the same variant");
        Optional<Answer> french = ask(stub, 12, stub.managerService, new SightingAsk(9, url, base, Headers.of("Accept-Language", "fr")));
        assertEquals(Optional.of(true), french.map(a -> ((SightingAnswer) a).first()), "another variant is its own first sighting");
        assertEquals(0, stub.manager(MANAGER).gateway().sent(), "the manager asks the gateway for nothing: the proxy will");
        assertEquals(1, stub.manager(MANAGER).inserts().sentThroughGateway());
        assertEquals(0, stub.originFetches());

        Optional<Answer> inserted = ask(stub, 12, ObjectNames.gatewayGuid(stub.provider.publicKey()),
                new InsertRequest(10, url, Headers.EMPTY, false));
        assertTrue(inserted.isPresent() && inserted.get() instanceof InsertReply r && r.outcome() == Outcome.INSERTED
                && r.guid().equals(base), "the gateway's answer: " + inserted);
        assertEquals(1, stub.originFetches(), "one origin fetch answers the second sighting and inserts it");
        LocateResult read = stub.read(18, base);
        assertTrue(read.found(), "the next proxy reads it from the overlay");
        assertEquals(1, stub.originFetches());
    }

    @Test
    void aQuestionNobodyProvidesForIsGivenUpOnAtOnce() {
        Stub stub = new Stub(11, NODES, GROUPS, GATEWAY, false, CacheManagerConfig.defaults(), MANAGER);
        Id nobody = Id.hash("a service nobody offers");
        @SuppressWarnings("unchecked")
        Optional<Answer>[] out = new Optional[1];
        stub.node(6).ask(nobody, new SightingAsk(1, "http://example.com/", nobody, Headers.EMPTY), 8, Duration.ofSeconds(30),
                a -> out[0] = a);
        stub.run(Duration.ofSeconds(5));
        assertEquals(Optional.empty(), out[0], "no provider of the service: empty, long before the deadline");
    }
}
