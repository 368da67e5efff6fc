package io.riptide.proxy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.client.ObjectRead;
import io.riptide.dolr.client.OverlayAccess;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Collapsed forwarding, in the simulated runtime: what the overlay sees (how many reads) and what
 * each waiting request gets, including a read that never answers.
 */
class SharedReadsTest {
    private static final Id GUID = Id.hash("a crowded page");
    private static final Id OTHER = Id.hash("another page");
    private static final long MS = 1_000_000L;

    /** Reads the overlay was asked for, each answered only when the test says. */
    private final List<Id> asked = new ArrayList<>();
    private final List<Consumer<ObjectRead>> pending = new ArrayList<>();
    private Simulation sim;
    private SimEnv env;

    private final OverlayAccess overlay = new OverlayAccess() {
        @Override
        public void read(Id guid, int ttl, Consumer<ObjectRead> done) {
            asked.add(guid);
            pending.add(done);
        }

        @Override
        public void anycast(Id service, WireMessage payload, int ttl) {
        }

        @Override
        public void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl) {
        }

        @Override
        public void ask(Id service, io.riptide.core.wire.Question question, int ttl, Duration within,
                        java.util.function.Consumer<java.util.Optional<io.riptide.core.wire.Answer>> done) {
            done.accept(java.util.Optional.empty());
        }

        @Override
        public Duration readDeadline() {
            return Duration.ofSeconds(3);
        }
    };

    @BeforeEach
    void runtime() {
        sim = new Simulation(1);
        env = new SimNetwork(sim, (a, b) -> 0).start(Id.hash("proxy"), 0, e -> (from, message) -> { });
    }

    @Test
    void requestsForAnObjectInFlightWaitForThatReadAndAllGetItsAnswer() {
        SharedReads reads = new SharedReads(env, overlay, 4, Duration.ofSeconds(3));
        List<ObjectRead> answers = new ArrayList<>();
        reads.read(GUID, answers::add);
        reads.read(GUID, answers::add);
        reads.read(GUID, answers::add);
        reads.read(OTHER, answers::add);
        assertEquals(List.of(GUID, OTHER), asked, "one overlay read per object, not per request");
        assertEquals(2, reads.started());
        assertEquals(2, reads.joined());

        ObjectRead found = new ObjectRead(GUID, null, 2, new byte[] {1, 2, 3}, null);
        pending.get(0).accept(found);
        assertEquals(3, answers.size(), "every request waiting on the read is answered");
        answers.forEach(a -> assertSame(found, a));
        assertEquals(1, reads.inFlight(), "the other object's read is still out");

        reads.read(GUID, answers::add);
        assertEquals(3, asked.size(), "a request after the answer starts a new read (the copy may have changed)");
    }

    @Test
    void aReadThatNeverAnswersIsNotJoinedPastTheDeadlineAndIsForgotten() {
        SharedReads reads = new SharedReads(env, overlay, 4, Duration.ofSeconds(3));
        List<ObjectRead> answers = new ArrayList<>();
        reads.read(GUID, answers::add);
        sim.runFor(2_999 * MS);
        reads.read(GUID, answers::add);
        assertEquals(1, asked.size(), "within the deadline a request joins the read");
        sim.runFor(2 * MS);
        assertEquals(0, reads.inFlight(), "a lost read holds nothing past the deadline");
        reads.read(GUID, answers::add);
        assertEquals(2, asked.size(), "after it, a request starts its own read rather than wait on a lost one");

        // The lost read answers late after all: its own waiters hear it, the new read's waiter does not.
        pending.get(0).accept(ObjectRead.failed(GUID, FailureReason.NOT_FOUND));
        assertEquals(2, answers.size());
        assertEquals(1, reads.inFlight(), "the newer read stays in flight");
    }
}
