package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/** A hand-driven client on a plain blocking socket, for speaking the protocol wrongly on purpose. */
final class RawPeer implements AutoCloseable {
    private final Socket socket = new Socket();
    private final DataInputStream in;
    private final OutputStream out;
    /** The link's sending direction, once {@link #handshake} is done. */
    private FrameAead sealer;

    RawPeer(NodeAddress to) throws IOException {
        this(to, null);
    }

    /** A peer connecting from the local address {@code from} (any 127.x.y.z works on Linux), or any if null. */
    RawPeer(NodeAddress to, InetAddress from) throws IOException {
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.connect(new InetSocketAddress(to.host(), to.port()), 2000);
        socket.setSoTimeout(5000);
        in = new DataInputStream(socket.getInputStream());
        out = socket.getOutputStream();
    }

    /** Writes {@code bytes}; false if the server already closed the connection. */
    boolean write(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads one frame and decodes it with {@code codec}. */
    WireMessage read(MessageCodec codec) throws IOException, WireException {
        int length = in.readInt();
        if (length < 0 || length > 1 << 20) {
            throw new IOException("implausible frame length " + length);
        }
        byte[] frame = new byte[length];
        in.readFully(frame);
        ByteBuf buf = Unpooled.wrappedBuffer(frame);
        try {
            return Frames.decode(codec, buf, Frames.OLDEST_VERSION);
        } finally {
            buf.release();
        }
    }

    /**
     * Whether the server closes the connection within {@code timeout}, discarding whatever it sends
     * meanwhile. A reset counts as closed.
     */
    boolean closedByServerWithin(Duration timeout) throws IOException {
        return bytesUntilClosed(timeout) >= 0;
    }

    /**
     * How many bytes the server sends before it closes the connection, or -1 if it has not closed it
     * within {@code timeout}. A reset counts as closed.
     */
    long bytesUntilClosed(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] sink = new byte[4096];
        long received = 0;
        InputStream raw = socket.getInputStream();
        while (System.nanoTime() < deadline) {
            socket.setSoTimeout((int) Math.max(1, Math.min(200, (deadline - System.nanoTime()) / 1_000_000)));
            try {
                int n = raw.read(sink);
                if (n < 0) {
                    return received;
                }
                received += n;
            } catch (SocketTimeoutException e) {
                // Still open; keep waiting until the deadline.
            } catch (IOException e) {
                return received;
            }
        }
        return -1;
    }

    /**
     * Runs the client side of the handshake, signing with {@code signer} while presenting
     * {@code presented}'s key; after it, {@link #writeSealed} sends frames as the link's keys seal them.
     */
    void handshake(SigningKey presented, SigningKey signer, NodeAddress advertised) throws IOException, WireException {
        MessageCodec codec = HandshakeCodec.create();
        ManualHandshake client = new ManualHandshake(Role.CLIENT, 7);
        Hello serverHello = (Hello) read(codec);
        write(frame(codec, client.hello()));
        Proof serverProof = (Proof) read(codec); // this peer doesn't care who the server is
        write(frame(codec, client.proof(serverHello, presented, signer, advertised)));
        sealer = new FrameAead(client.keys(presented.publicKey(), serverProof.key()).sending());
    }

    /** Writes the frame {@code plain} sealed as the next frame of the link; false if the server already closed it. */
    boolean writeSealed(byte[] plain) {
        ByteBuf frame = Unpooled.wrappedBuffer(plain);
        ByteBuf sealed = null;
        try {
            sealed = sealer.seal(frame, UnpooledByteBufAllocator.DEFAULT);
            byte[] bytes = new byte[sealed.readableBytes()];
            sealed.readBytes(bytes);
            return write(bytes);
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        } finally {
            frame.release();
            if (sealed != null) {
                sealed.release();
            }
        }
    }

    /** The message in a whole handshake frame ({@code u32 length} included), as a node of version 8 reads it. */
    static WireMessage decode(MessageCodec codec, byte[] frame) {
        ByteBuf buf = Unpooled.wrappedBuffer(frame, 4, frame.length - 4);
        try {
            return Frames.decode(codec, buf, Frames.OLDEST_VERSION);
        } catch (WireException e) {
            throw new AssertionError(e);
        } finally {
            buf.release();
        }
    }

    /** The bytes of {@code message} framed as a node of version 8 sends it (a raw peer offers no other, see VersionOffer). */
    static byte[] frame(MessageCodec codec, WireMessage message) {
        ByteBuf buf = Frames.encode(codec, message, Frames.OLDEST_VERSION, UnpooledByteBufAllocator.DEFAULT);
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
