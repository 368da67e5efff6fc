package io.riptide.gateway.origin;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An origin that answers raw bytes from a script, for answers no real server would send (malformed,
 * truncated, slow). Each connection reads one request head and runs the script; bounded in time by
 * socket timeouts and by {@link #close}.
 */
final class ScriptedOrigin implements AutoCloseable {
    /** What to do on a connection after reading a request head. */
    interface Script {
        void run(OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    ScriptedOrigin(Script script) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    sockets.add(s);
                    Thread t = new Thread(() -> serve(s, script), "scripted-origin-conn");
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        }, "scripted-origin");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A script that writes {@code raw} (ISO-8859-1) and closes the connection. */
    static Script raw(String raw) {
        return out -> {
            out.write(raw.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        };
    }

    private void serve(Socket s, Script script) {
        try (s) {
            s.setSoTimeout(10_000);
            requests.add(readHead(s.getInputStream()));
            script.run(s.getOutputStream());
        } catch (IOException | InterruptedException e) {
            // The client went away or the test closed us: either ends this connection.
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    URI url(String path) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
    }

    /** The request heads received, in order. */
    List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
