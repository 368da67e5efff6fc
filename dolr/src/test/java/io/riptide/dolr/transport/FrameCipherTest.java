package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The key schedule and the per-frame AEAD, apart from any socket. */
class FrameCipherTest {
    private final SigningKey clientKey = SigningKey.fromSeed(filled(1));
    private final SigningKey serverKey = SigningKey.fromSeed(filled(2));
    private final ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
    private final NettyLogWatch netty = new NettyLogWatch();

    @AfterEach
    void tearDown() throws InterruptedException {
        try {
            netty.assertClean();
        } finally {
            netty.close();
        }
    }

    @Test
    void eachSideSealsWithTheKeyTheOtherOpensWithAndTheTwoWaysDiffer() {
        LinkKeys[] keys = agree(clientKey, serverKey);
        LinkKeys client = keys[0];
        LinkKeys server = keys[1];
        assertArrayEquals(client.sending(), server.receiving());
        assertArrayEquals(server.sending(), client.receiving());
        assertFalse(Arrays.equals(client.sending(), client.receiving()), "one key per direction");
        assertEquals(LinkKeys.KEY_BYTES, client.sending().length);
    }

    @Test
    void keysAreBoundToBothNodeKeys() {
        // A relay that put its own proof in place of the server's would leave the client with other
        // keys than the server's: nothing either sealed would open at the other.
        ManualHandshake client = new ManualHandshake(Role.CLIENT, 1);
        ManualHandshake server = new ManualHandshake(Role.SERVER, 2);
        server.proof(client.hello(), serverKey, serverKey, address());
        client.proof(server.hello(), clientKey, clientKey, address());
        SigningKey relayKey = SigningKey.fromSeed(filled(3));
        byte[] atServer = server.keys(serverKey.publicKey(), clientKey.publicKey()).receiving();
        assertArrayEquals(atServer, client.keys(clientKey.publicKey(), serverKey.publicKey()).sending());
        assertFalse(Arrays.equals(atServer, client.keys(clientKey.publicKey(), relayKey.publicKey()).sending()));
    }

    @Test
    void aFrameOpensOnlyInItsOwnPlaceUnderItsOwnKey() throws Exception {
        LinkKeys[] keys = agree(clientKey, serverKey);
        FrameAead sealer = new FrameAead(keys[0].sending());
        byte[][] sealed = new byte[3][];
        for (int i = 0; i < sealed.length; i++) {
            sealed[i] = seal(sealer, frame(new byte[] {(byte) i, 1, 2, 3}));
        }
        // In order: each opens to what was sealed.
        FrameAead opener = new FrameAead(keys[1].receiving());
        for (int i = 0; i < sealed.length; i++) {
            assertArrayEquals(new byte[] {Frames.VERSION, (byte) i, 1, 2, 3}, open(opener, sealed[i]));
        }
        // Replayed, reordered, or one left out: opened under a nonce other than its own.
        assertThrows(AEADBadTagException.class, () -> open(opener, sealed[2]), "replayed");
        FrameAead second = new FrameAead(keys[1].receiving());
        assertThrows(AEADBadTagException.class, () -> open(second, sealed[1]), "out of order");
        // Reflected back at its sender: the other direction's key.
        assertThrows(AEADBadTagException.class, () -> open(new FrameAead(keys[0].receiving()), sealed[0]), "reflected");
        // Any one bit changed, the version included. (The length is what the frame decoder cut the
        // frame by, so a changed length shows as a frame of another length, authenticated as such.)
        for (int at = 4; at < sealed[0].length; at++) {
            byte[] altered = sealed[0].clone();
            altered[at] ^= 0x40;
            int where = at;
            assertThrows(GeneralSecurityException.class, () -> open(new FrameAead(keys[1].receiving()), altered),
                    "bit flipped at " + where);
        }
        // A frame cut one byte short, its length field telling the truth: authenticated as shorter.
        byte[] cut = Arrays.copyOf(sealed[0], sealed[0].length - 1);
        cut[3]--;
        assertThrows(AEADBadTagException.class, () -> open(new FrameAead(keys[1].receiving()), cut));
        // Too short to hold a tag.
        assertThrows(AEADBadTagException.class, () -> open(new FrameAead(keys[1].receiving()), new byte[] {0, 0, 0, 1, 8}));
    }

    @Test
    void aSealerWhoseKeyIsUsedUpClosesTheConnectionInsteadOfSealingMore() {
        byte[] key = agree(clientKey, serverKey)[0].sending();
        EmbeddedChannel ch = new EmbeddedChannel(new FrameSealer(new FrameAead(key, 100)));
        ChannelFuture first = ch.writeAndFlush(Unpooled.wrappedBuffer(frame(new byte[100])));
        assertTrue(first.isSuccess());
        ByteBuf out = ch.readOutbound();
        assertEquals(Frames.HEADER_BYTES + 100 + FrameAead.TAG_BYTES, out.readableBytes());
        out.release();
        ByteBuf second = Unpooled.wrappedBuffer(frame(new byte[1]));
        ChannelFuture refused = ch.writeAndFlush(second);
        assertFalse(refused.isSuccess());
        assertFalse(ch.isOpen(), "closed, so that the next send reconnects under new keys");
        assertEquals(0, second.refCnt(), "the refused frame was released");
        assertFalse(ch.finishAndReleaseAll());
    }

    private static NodeAddress address() {
        return new NodeAddress(Cluster.HOST, 7000);
    }

    /** The client's keys and the server's, from one handshake worked by hand. */
    private static LinkKeys[] agree(SigningKey clientKey, SigningKey serverKey) {
        ManualHandshake client = new ManualHandshake(Role.CLIENT, 1);
        ManualHandshake server = new ManualHandshake(Role.SERVER, 2);
        server.proof(client.hello(), serverKey, serverKey, address());
        client.proof(server.hello(), clientKey, clientKey, address());
        return new LinkKeys[] {client.keys(clientKey.publicKey(), serverKey.publicKey()),
                server.keys(serverKey.publicKey(), clientKey.publicKey())};
    }

    /** A frame as a node frames a body: length, version, body. */
    private static byte[] frame(byte[] body) {
        byte[] out = new byte[Frames.HEADER_BYTES + body.length];
        int length = 1 + body.length;
        out[0] = (byte) (length >>> 24);
        out[1] = (byte) (length >>> 16);
        out[2] = (byte) (length >>> 8);
        out[3] = (byte) length;
        out[4] = Frames.VERSION;
        System.arraycopy(body, 0, out, Frames.HEADER_BYTES, body.length);
        return out;
    }

    private byte[] seal(FrameAead aead, byte[] frame) throws GeneralSecurityException {
        ByteBuf in = Unpooled.wrappedBuffer(frame);
        ByteBuf out = aead.seal(in, alloc);
        in.release();
        try {
            return bytes(out);
        } finally {
            out.release();
        }
    }

    /** Opens {@code sealed} (length field included, as the frame decoder strips it). */
    private byte[] open(FrameAead aead, byte[] sealed) throws GeneralSecurityException {
        ByteBuf in = Unpooled.wrappedBuffer(sealed, 4, sealed.length - 4);
        try {
            ByteBuf out = aead.open(in, alloc);
            try {
                return bytes(out);
            } finally {
                out.release();
            }
        } finally {
            in.release();
        }
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] b = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), b);
        return b;
    }

    private static byte[] filled(int value) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) value);
        return b;
    }
}
