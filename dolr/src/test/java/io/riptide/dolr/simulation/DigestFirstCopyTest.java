package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.store.ReplicaHead;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocationMessages.BodyRead;
import io.riptide.dolr.location.LocationMessages.HeadRead;
import io.riptide.dolr.location.LocationMessages.ReplicaRead;
import io.riptide.dolr.placement.PlaceResult;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Digest-first replica copies in a simulated overlay: the copier reads the head first and fetches
 * the body only when it holds none with that digest, and refuses a body whose SHA-256 is not the
 * announced one.
 */
class DigestFirstCopyTest {
    private static final int NODES = 48;
    private static final int GROUPS = 6;
    private static final int HOLDER = 1;
    private static final int REQUESTER = 2;
    private static final int TARGET = 8;

    private final SimulatedOverlay overlay = OverlayFixture.settled(23, NODES, GROUPS);
    private long bodyBytesSent;
    private long wholeReadBytesSent;
    private int headsSent;

    DigestFirstCopyTest() {
        overlay.network().tap(m -> {
            if (m instanceof BodyRead b) {
                bodyBytesSent += b.body().length;
            } else if (m instanceof ReplicaRead r) {
                wholeReadBytesSent += r.data().length;
            } else if (m instanceof HeadRead) {
                headsSent++;
            }
        });
    }

    private static byte[] body(int size, int fill) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private PlaceResult replicate(Id guid) {
        PlaceResult[] out = new PlaceResult[1];
        overlay.node(REQUESTER).replicateTo(overlay.node(TARGET).self(), guid, r -> out[0] = r);
        run(overlay, Duration.ofSeconds(8));
        assertNotNull(out[0], "an answer before the deadline");
        return out[0];
    }

    @Test
    void theSecondCopyOfABodySendsNoBodyBytes() {
        byte[] shared = body(20_000, 7);
        Id first = Id.hash("http://a.example/logo.png");
        Id second = Id.hash("http://b.example/same-logo.png");
        overlay.node(HOLDER).storeReplica(first, shared);
        overlay.node(HOLDER).storeReplica(second, shared);
        run(overlay, Duration.ofSeconds(2));

        assertTrue(replicate(first).ok());
        assertEquals(shared.length, bodyBytesSent, "the first copy fetches the body");
        assertEquals(1, headsSent);

        assertTrue(replicate(second).ok());
        assertEquals(2, headsSent, "the second copy reads the head");
        assertEquals(shared.length, bodyBytesSent, "and no body bytes move: the target holds that digest");
        assertEquals(0, wholeReadBytesSent);

        OverlayNode target = overlay.node(TARGET);
        assertArrayEquals(shared, target.replicas().get(second).join());
        assertEquals(1, target.replicas().bodies(), "one body for both objects");
        assertEquals(1, target.copyStats().bodiesSkipped());
        assertEquals(1, target.copyStats().bodiesFetched());
    }

    @Test
    void aBodyThatDoesNotMatchTheAnnouncedDigestIsNeverStored() {
        byte[] real = body(5_000, 3);
        Id guid = Id.hash("http://c.example/page.html");
        OverlayNode holder = overlay.node(HOLDER);
        holder.storeReplica(guid, real);
        run(overlay, Duration.ofSeconds(2));
        // The holder's body record goes bad in place: same digest field, other bytes (a broken or lying peer).
        byte[] digest = ReplicaHead.sha256(ByteBuffer.wrap(real));
        byte[] forged = ByteBuffer.allocate(1 + digest.length + real.length).put((byte) 2).put(digest)
                .put(body(real.length, 4)).array();
        assertTrue(holder.replicas().tier().put(ReplicaHead.bodyKey(digest), forged));

        PlaceResult result = replicate(guid);

        assertFalse(result.ok(), "the copy is refused");
        OverlayNode target = overlay.node(TARGET);
        assertFalse(target.replicas().contains(guid));
        assertFalse(target.replicas().holdsBody(digest), "nothing indexed under the announced digest");
        assertFalse(target.replicas().holdsBody(ReplicaHead.sha256(ByteBuffer.wrap(body(real.length, 4)))),
                "nor under the received body's own");
        assertEquals(1, target.copyStats().bodiesRefused());
    }
}
