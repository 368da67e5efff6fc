package io.riptide.dolr.transport;

import io.riptide.core.runtime.NodeAddress;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A man in the middle on 127.0.0.1: whoever connects to it is connected on to {@code target}, and
 * the frames are passed both ways, each recorded as it came and optionally rewritten on the way.
 */
final class Relay implements AutoCloseable {
    /** Which way a frame goes. */
    enum Way {
        DIALLER_TO_LISTENER,
        LISTENER_TO_DIALLER
    }

    /**
     * What to pass on instead of a frame ({@code u32 length} included): {@code index} counts the
     * frames of its connection (numbered from 0) going its way, so 0 is a Hello, 1 a Proof.
     */
    interface Rewrite {
        List<byte[]> frame(int connection, Way way, int index, byte[] frame);
    }

    /** Passes every frame on as it came. */
    static final Rewrite AS_IS = (connection, way, index, frame) -> List.of(frame);

    private final NodeAddress target;
    private final Rewrite rewrite;
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Frame> seen = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();

    /** One frame as the relay received it. */
    record Frame(int connection, Way way, int index, byte[] bytes) {
    }

    Relay(NodeAddress target, Rewrite rewrite) throws IOException {
        this.target = target;
        this.rewrite = rewrite;
        this.server = new ServerSocket(0, 50, InetAddress.getByName(Cluster.HOST));
        Thread acceptor = new Thread(this::accept, "relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Where to send to reach {@code target} through the relay. */
    NodeAddress address() {
        return new NodeAddress(Cluster.HOST, server.getLocalPort());
    }

    /** Every frame received so far, in the order received per way. */
    List<Frame> seen() {
        return List.copyOf(seen);
    }

    /** Every byte received so far going {@code way}, as it came. */
    byte[] bytes(Way way) {
        ByteBuffer all = ByteBuffer.allocate(seen.stream().filter(f -> f.way() == way).mapToInt(f -> f.bytes().length).sum());
        seen.stream().filter(f -> f.way() == way).forEach(f -> all.put(f.bytes()));
        return all.array();
    }

    /** Connections relayed so far. */
    int connections() {
        return connections.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket dialler = server.accept();
                sockets.add(dialler);
                Socket listener = new Socket();
                sockets.add(listener);
                listener.connect(new InetSocketAddress(target.host(), target.port()), 2000);
                int connection = connections.getAndIncrement();
                pump(connection, Way.DIALLER_TO_LISTENER, dialler, listener);
                pump(connection, Way.LISTENER_TO_DIALLER, listener, dialler);
            } catch (IOException e) {
                // Closed, or the target refused: the dialler's socket goes with close().
            }
        }
    }

    private void pump(int connection, Way way, Socket from, Socket to) {
        Thread t = new Thread(() -> {
            try {
                DataInputStream in = new DataInputStream(from.getInputStream());
                OutputStream out = to.getOutputStream();
                for (int index = 0; ; index++) {
                    int length = in.readInt();
                    byte[] frame = ByteBuffer.allocate(4 + length).putInt(length).put(in.readNBytes(length)).array();
                    seen.add(new Frame(connection, way, index, frame));
                    for (byte[] part : rewrite.frame(connection, way, index, frame)) {
                        out.write(part);
                    }
                    out.flush();
                }
            } catch (IOException e) {
                // One side ended: end the other's half once what was passed on is read (a close could reset it).
                try {
                    to.shutdownOutput();
                } catch (IOException ignored) {
                    // Already closed.
                }
            }
        }, "relay-" + connection + "-" + way);
        t.setDaemon(true);
        t.start();
    }

    /** A frame with one byte at {@code at} (counted from its start, length field included) flipped. */
    static byte[] flipped(byte[] frame, int at) {
        byte[] out = frame.clone();
        out[at] ^= 0x01;
        return out;
    }

    @Override
    public void close() throws IOException {
        server.close();
        List<IOException> failures = new ArrayList<>();
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                failures.add(e);
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }
}
