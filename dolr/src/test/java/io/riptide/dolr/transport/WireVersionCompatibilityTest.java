package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node of this build against main's version-8 handshake, byte for byte. {@code v8-handshake.txt}
 * holds every frame main's own code (commit e2982c0) wrote in {@link HandshakeRecorder}'s run; the
 * frozen copy of that code ({@code V8HandshakeHandler} and friends) must reproduce it exactly, and
 * is then the version-8 peer this build is run against, live, in both roles.
 */
class WireVersionCompatibilityTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String BOTH_READ_CLIENT = "client read " + hex(HandshakeRecorder.PLAINTEXT_FRAME, 4) + ";";
    private static final String BOTH_READ_SERVER = "server read " + hex(HandshakeRecorder.PLAINTEXT_FRAME, 4) + ";";

    private final NettyLogWatch netty = new NettyLogWatch();
    private final TransportCounters counters = new TransportCounters();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    /** Main's code, frozen: the handshake every deployed node runs. */
    private static HandshakeRecorder.Side v8() {
        return (role, key, random) -> new V8HandshakeHandler(role, key, address(role), V8HandshakeCodec.create(), TIMEOUT,
                random, new TransportCounters(), HandshakeRecorder::passThrough, () -> { });
    }

    /** This build's handshake speaking {@code versions}; {@code agreed} gets the link's version. */
    private HandshakeRecorder.Side current(WireVersions versions, AtomicInteger agreed) {
        return (role, key, random) -> new HandshakeHandler(role, key, versions, address(role), HandshakeCodec.create(), TIMEOUT,
                random, counters, new VersionRefusals(counters), version -> {
                    agreed.set(version);
                    return HandshakeRecorder.passThrough();
                }, () -> { }, null, null);
    }

    private static NodeAddress address(Role role) {
        return new NodeAddress("127.0.0.1", role == Role.CLIENT ? 4001 : 4002);
    }

    private static List<String> mainsRecording() throws IOException {
        try (InputStream in = WireVersionCompatibilityTest.class.getResourceAsStream("v8-handshake.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.startsWith("#")).toList();
        }
    }

    @Test
    void theFrozenCopyIsMainsCodeByteForByte() throws IOException {
        List<String> recorded = mainsRecording();
        assertEquals(8, recorded.size(), "Hello, Proof, a sealed frame each way, and what each read: " + recorded);
        assertEquals(recorded, HandshakeRecorder.record(v8(), v8()));
    }

    @Test
    void aNodeSpeakingVersion8AloneSendsMainsBytesExactlyInEitherRole() throws IOException {
        List<String> recorded = mainsRecording();
        AtomicInteger agreed = new AtomicInteger();
        assertEquals(recorded, HandshakeRecorder.record(current(WireVersions.only(8), agreed), v8()), "as the client");
        assertEquals(8, agreed.get());
        agreed.set(0);
        assertEquals(recorded, HandshakeRecorder.record(v8(), current(WireVersions.only(8), agreed)), "as the server");
        assertEquals(8, agreed.get());
        assertEquals(recorded, HandshakeRecorder.record(current(WireVersions.only(8), agreed), current(WireVersions.only(8), agreed)),
                "two of them talk as two of main's nodes do");
    }

    @Test
    void aNodeOfEveryVersionTalksToMainsCodeAtVersion8InEitherRole() {
        for (Role ours : Role.values()) {
            AtomicInteger agreed = new AtomicInteger();
            HandshakeRecorder.Side current = current(WireVersions.all(), agreed);
            List<String> lines = ours == Role.CLIENT ? HandshakeRecorder.record(current, v8()) : HandshakeRecorder.record(v8(), current);
            assertEquals(8, agreed.get(), ours + ": " + lines);
            // Each end opened the other's sealed frame: both signatures verified and both agreed the keys.
            assertTrue(lines.contains(BOTH_READ_CLIENT) && lines.contains(BOTH_READ_SERVER), ours + ": " + lines);
            assertFalse(lines.stream().anyMatch(l -> l.endsWith("closed")), ours + ": " + lines);
            String hello = lines.stream().filter(l -> l.startsWith(ours.name().toLowerCase() + " wrote ")).findFirst().orElseThrow();
            String bytes = hello.substring(hello.indexOf(" wrote ") + 7);
            // Main's framing and fields: length 75, version byte 8, tag 0xFF00, a 32-byte nonce (that
            // carries the offer: marker, 8, 9, random) and a 32-byte key.
            assertEquals(2 * (4 + 75), bytes.length(), ours + ": " + hello);
            String offer = hex("rptd/ver".getBytes(StandardCharsets.US_ASCII), 0)
                    + String.format("%02x%02x", Frames.OLDEST_VERSION, Frames.VERSION);
            assertTrue(bytes.startsWith("0000004b08ff0000000020" + offer), ours + ": " + hello);
        }
        assertEquals(0, counters.snapshot(0, 0).handshakesFailed());
    }

    @Test
    void twoNodesOfThisBuildAgreeTheNewestVersion() {
        AtomicInteger client = new AtomicInteger();
        AtomicInteger server = new AtomicInteger();
        List<String> lines = HandshakeRecorder.record(current(WireVersions.all(), client), current(WireVersions.all(), server));
        assertEquals(Frames.VERSION, client.get());
        assertEquals(Frames.VERSION, server.get());
        assertTrue(lines.contains(BOTH_READ_CLIENT) && lines.contains(BOTH_READ_SERVER), lines.toString());
    }

    @Test
    void aPeerWithNoVersionInCommonIsRefusedBeforeOurProofAndCounted() {
        AtomicInteger agreed = new AtomicInteger();
        List<String> lines = HandshakeRecorder.record(current(WireVersions.only(9), agreed), v8());
        assertEquals(0, agreed.get());
        assertEquals(1, lines.stream().filter(l -> l.startsWith("client wrote")).count(), "our Hello, and no Proof: " + lines);
        assertTrue(lines.contains("client closed"), lines.toString());
        assertTrue(lines.contains("client read ") && lines.contains("server read "), "nothing got through: " + lines);
        TransportMetrics m = counters.snapshot(0, 0);
        assertEquals(1, m.handshakesVersionRefused());
        assertEquals(1, m.handshakesFailed());
        assertEquals("no wire version in common: this node speaks 9–9, the peer 8–8",
                WireVersions.only(9).noneInCommon(VersionOffer.LEGACY));
    }

    @Test
    void twoNodesOfThisBuildWithNoVersionInCommonBothRefuse() {
        AtomicInteger agreed = new AtomicInteger();
        List<String> lines = HandshakeRecorder.record(current(WireVersions.only(8), agreed), current(WireVersions.only(9), agreed));
        assertEquals(0, agreed.get());
        assertTrue(lines.contains("client closed") && lines.contains("server closed"), lines.toString());
        assertEquals(2, counters.snapshot(0, 0).handshakesVersionRefused());
    }

    private static String hex(byte[] bytes, int from) {
        StringBuilder out = new StringBuilder();
        for (int i = from; i < bytes.length; i++) {
            out.append(String.format("%02x", bytes[i]));
        }
        return out.toString();
    }
}
