package io.riptide.cli.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * An open-loop load generator: requests go out on a fixed schedule ({@code rate} per second, evenly spaced) whatever
 * the server does, and each latency is measured from the request's intended send time, so a server that stalls is
 * charged for every request that should have gone out meanwhile (no coordinated omission). A request goes out at its
 * instant on an idle keep-alive connection, on a newly opened one while fewer than the bound are open, or else waits
 * for the first connection to come free (its wait counted in its latency).
 *
 * <p>A {@code 503} carrying {@code Retry-After} is counted apart, as shed: the server refused that request on purpose,
 * quickly, and the connection stays usable. Answers are also counted per second of the run ({@link Result#perSecond}),
 * so a benchmark can draw the offered and served rates over time.
 *
 * <p>Two threads: the caller's sends on schedule, a reader parses the responses (HTTP/1.1 with Content-Length) off
 * non-blocking sockets with one selector. Both are light, so that the generator takes little of the machine from the
 * server it measures.
 */
public final class OpenLoopLoad {
    private static final Duration DRAIN = Duration.ofSeconds(10);
    private static final int MAX_HEAD = 16 * 1024;
    private final double rate;
    private final Duration duration;
    private final int initialConnections;
    private final int maxConnections;

    /** {@code rate} requests per second for {@code duration}, on {@code initialConnections} growing up to {@code maxConnections}. */
    public OpenLoopLoad(double rate, Duration duration, int initialConnections, int maxConnections) {
        if (!(rate > 0) || rate > 10_000_000) {
            throw new IllegalArgumentException("rate must be above 0 and at most 10^7 per second, got " + rate);
        }
        if (initialConnections < 1 || maxConnections < initialConnections) {
            throw new IllegalArgumentException("need 1 <= initial connections <= max connections, got " + initialConnections
                    + " and " + maxConnections);
        }
        this.rate = rate;
        this.duration = duration;
        this.initialConnections = initialConnections;
        this.maxConnections = maxConnections;
    }

    /**
     * What a run achieved.
     *
     * @param scheduled       requests the schedule called for
     * @param completed       responses that were 200 with the expected body length
     * @param errors          requests that failed: other answers (shed ones apart), broken connections, no answer by the end
     * @param seconds         the schedule's length
     * @param rate            the requested rate per second
     * @param latencyNanos    the completed requests' latencies from their intended send times
     * @param connectionsUsed how many connections were opened in all
     * @param queued          requests that found every connection busy and none left to open, and waited in the
     *                        generator for one to come free: if any did, the server (with the generator) did not keep up
     * @param shed            requests answered 503 with Retry-After: refused by the server's admission control
     * @param shedLatencyNanos how long those 503s took, from their intended send times
     * @param perSecond       requests due, and answers (completed, shed, failed) by the second they arrived in, from the
     *                        schedule's start through the drain
     */
    public record Result(long scheduled, long completed, long errors, double seconds, double rate, Histogram latencyNanos,
            int connectionsUsed, long queued, long shed, Histogram shedLatencyNanos, PerSecond perSecond) {
        /** Whether the server fell behind the schedule so far that requests had to queue for a connection. */
        public boolean saturated() {
            return queued > 0;
        }

        public double p50Ms() {
            return ms(50);
        }

        public double p99Ms() {
            return ms(99);
        }

        public double p999Ms() {
            return ms(99.9);
        }

        public double maxMs() {
            return latencyNanos.getTotalCount() == 0 ? Double.NaN : latencyNanos.getMaxValue() / 1e6;
        }

        /** Responses per second over the schedule. */
        public double achievedRate() {
            return completed / seconds;
        }

        /**
         * Responses (200, the expected length) per second that came in while the schedule ran: unlike
         * {@link #achievedRate}, not flattered by the answers a backlog still delivers after the schedule ended.
         */
        public double servedRateDuringSchedule() {
            int whole = (int) Math.floor(seconds);
            long sum = 0;
            for (int i = 0; i < Math.min(whole, perSecond.completed().length); i++) {
                sum += perSecond.completed()[i];
            }
            return whole == 0 ? achievedRate() : (double) sum / whole;
        }

        /** Shed answers per second over the schedule. */
        public double shedRate() {
            return shed / seconds;
        }

        private double ms(double percentile) {
            return latencyNanos.getTotalCount() == 0 ? Double.NaN : latencyNanos.getValueAtPercentile(percentile) / 1e6;
        }
    }

    /**
     * Counts by whole second since the schedule's start: requests due ({@code offered}) and answers by the second they
     * came in ({@code completed}, {@code shed}, {@code failed}); answers after the last slot are not counted here.
     */
    public record PerSecond(long[] offered, long[] completed, long[] shed, long[] failed) {
    }

    /** Per-second tallies the sender and the reader add to. */
    private static final class Tally {
        final AtomicLongArray offered;
        final AtomicLongArray completed;
        final AtomicLongArray shed;
        final AtomicLongArray failed;
        final long start;

        Tally(int seconds, long start) {
            offered = new AtomicLongArray(seconds);
            completed = new AtomicLongArray(seconds);
            shed = new AtomicLongArray(seconds);
            failed = new AtomicLongArray(seconds);
            this.start = start;
        }

        void add(AtomicLongArray a, long at) {
            long second = Math.floorDiv(at - start, 1_000_000_000L);
            if (second >= 0 && second < a.length()) {
                a.incrementAndGet((int) second);
            }
        }

        PerSecond snapshot() {
            return new PerSecond(copy(offered), copy(completed), copy(shed), copy(failed));
        }

        private static long[] copy(AtomicLongArray a) {
            long[] out = new long[a.length()];
            for (int i = 0; i < out.length; i++) {
                out[i] = a.get(i);
            }
            return out;
        }
    }

    /**
     * Runs the schedule: {@code GET target} with {@code Host: host} to {@code server}; a response counts as completed
     * when it is 200 with {@code size} body bytes. Returns once every request is answered or has failed, at most
     * 10 s after the last was due.
     */
    public Result run(InetSocketAddress server, String target, String host, int size) throws IOException, InterruptedException {
        byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: */*\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        try (Run run = new Run(server, request, size)) {
            for (int i = 0; i < initialConnections; i++) {
                Connection c = run.connect();
                synchronized (run) {
                    run.open++;
                    run.idle.add(c);
                }
            }
            Thread reader = new Thread(run::readLoop, "open-loop-reader");
            reader.setDaemon(true);
            reader.start();
            long total = Math.max(1, Math.round(rate * duration.toNanos() / 1e9));
            double interval = 1e9 / rate;
            long start = System.nanoTime() + 1_000_000; // a millisecond to get going, so the first request is not late
            run.tally = new Tally((int) Math.ceil(duration.toNanos() / 1e9) + (int) DRAIN.toSeconds(), start);
            for (long i = 0; i < total; i++) {
                long due = start + (long) (i * interval);
                // Parked rather than spinning, so the generator leaves the CPU to the server; a late wake-up sends every
                // request due by then at once, each still timed from its own due time.
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                run.tally.add(run.tally.offered, due);
                run.dispatch(due);
            }
            long drainEnd = System.nanoTime() + DRAIN.toNanos();
            while (run.completed.get() + run.shed.get() + run.errors.get() < total && System.nanoTime() < drainEnd) {
                Thread.sleep(5);
            }
            run.stop();
            reader.join(5000);
            if (run.readerFailure != null) {
                throw new IOException("the open-loop reader failed", run.readerFailure);
            }
            long unanswered = total - run.completed.get() - run.shed.get() - run.errors.get();
            Histogram latency = run.latency.copy();
            return new Result(total, run.completed.get(), run.errors.get() + Math.max(0, unanswered), duration.toNanos() / 1e9, rate,
                    latency, run.opened.get(), run.queued.get(), run.shed.get(), run.shedLatency.copy(), run.tally.snapshot());
        }
    }

    /**
     * The state of one run. The sending (caller's) thread and the reader share the connection queues and each
     * connection's due time under this object's lock; parsing and the histogram are the reader's alone; system calls
     * are made outside the lock.
     */
    private final class Run implements AutoCloseable {
        private final InetSocketAddress server;
        private final byte[] request;
        private final int size;
        private final Selector selector;
        private final Queue<Connection> idle = new ArrayDeque<>();
        private final DueTimes waiting = new DueTimes();
        private final Queue<Connection> toRegister = new ConcurrentLinkedQueue<>();
        private final Queue<Connection> all = new ConcurrentLinkedQueue<>();
        private final Histogram latency = LatencyStats.newHistogram();
        private final Histogram shedLatency = LatencyStats.newHistogram();
        private final AtomicLong completed = new AtomicLong();
        private final AtomicLong shed = new AtomicLong();
        /** Set before the first request is sent, so the reader (started earlier) sees it with its first answer. */
        private volatile Tally tally;
        private final AtomicLong errors = new AtomicLong();
        private final AtomicInteger opened = new AtomicInteger();
        private final AtomicLong queued = new AtomicLong();
        private volatile boolean running = true;
        private volatile Throwable readerFailure;
        /** Connections open or being opened; guarded by the lock. */
        private int open;

        Run(InetSocketAddress server, byte[] request, int size) throws IOException {
            this.server = server;
            this.request = request;
            this.size = size;
            this.selector = Selector.open();
        }

        /** Sends the request due at {@code due}, or queues it when every connection is busy and no more may open. */
        void dispatch(long due) {
            Connection c;
            boolean fresh = false;
            synchronized (this) {
                c = idle.poll();
                if (c == null) {
                    if (open >= maxConnections) {
                        queued.incrementAndGet();
                        waiting.add(due);
                        return;
                    }
                    open++; // this slot is ours while the connection opens
                    fresh = true;
                } else {
                    c.due = due;
                }
            }
            if (fresh) {
                try {
                    c = connect();
                } catch (IOException e) {
                    synchronized (this) {
                        open--;
                    }
                    errors.incrementAndGet(); // this request could not be sent; the schedule goes on
                    return;
                }
                synchronized (this) {
                    c.due = due;
                }
            }
            send(c);
        }

        /** Opens a connection (the caller counts it in {@link #open}) and hands it to the reader to register. */
        Connection connect() throws IOException {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.connect(server);
                ch.configureBlocking(false);
            } catch (IOException e) {
                ch.close();
                throw e;
            }
            Connection c = new Connection(ch, size, request);
            all.add(c);
            opened.incrementAndGet();
            toRegister.add(c);
            selector.wakeup();
            return c;
        }

        /** Writes the request on a connection whose due time is set; nothing is in flight on it. */
        private void send(Connection c) {
            ByteBuffer b = c.request;
            b.clear();
            try {
                int spins = 0;
                while (b.hasRemaining()) {
                    // A connection with nothing in flight has an empty send buffer: a request this small goes in one write.
                    if (c.channel.write(b) == 0 && ++spins > 1000) {
                        throw new IOException("could not write a request of " + request.length + " bytes");
                    }
                }
            } catch (IOException e) {
                synchronized (this) {
                    fail(c);
                }
            }
        }

        /** Drops a broken connection, counting its request (if any) as failed; called holding the lock. */
        private void fail(Connection c) {
            if (c.due != 0) {
                errors.incrementAndGet();
                tally(tally == null ? null : tally.failed);
                c.due = 0;
            }
            if (c.closed) {
                return;
            }
            c.closed = true;
            open--;
            idle.remove(c);
            try {
                c.channel.close();
            } catch (IOException e) {
                // gone either way
            }
        }

        void readLoop() {
            ByteBuffer buffer = ByteBuffer.allocateDirect(256 * 1024);
            try {
                while (running) {
                    selector.select(50);
                    for (Connection c = toRegister.poll(); c != null; c = toRegister.poll()) {
                        if (!c.closed) {
                            c.channel.register(selector, SelectionKey.OP_READ, c);
                        }
                    }
                    Set<SelectionKey> ready = selector.selectedKeys();
                    for (SelectionKey key : ready) {
                        Connection c = (Connection) key.attachment();
                        if (key.isValid() && !c.closed) {
                            read(c, buffer);
                        }
                    }
                    ready.clear();
                }
            } catch (IOException | RuntimeException e) {
                readerFailure = e;
            }
        }

        private void read(Connection c, ByteBuffer buffer) {
            while (true) {
                buffer.clear();
                int n;
                try {
                    n = c.channel.read(buffer);
                } catch (IOException e) {
                    n = -1;
                }
                if (n < 0) {
                    synchronized (this) {
                        fail(c);
                    }
                    return;
                }
                buffer.flip();
                while (buffer.hasRemaining()) {
                    int outcome = c.consume(buffer);
                    if (outcome == Connection.INCOMPLETE) {
                        break;
                    }
                    if (!complete(c, outcome)) {
                        return;
                    }
                }
                // Whatever did not fit is still there and makes the channel ready again; one read per wake-up otherwise.
                if (n < buffer.capacity()) {
                    return;
                }
            }
        }

        /** Accounts for a whole response and gives the connection its next request or back to the idle ones; false if it closed. */
        private boolean complete(Connection c, int outcome) {
            long now = System.nanoTime();
            boolean closing = c.mustClose || outcome == Connection.BROKEN;
            long due;
            boolean sendNext = false;
            synchronized (this) {
                due = c.due;
                c.due = 0;
                if (due != 0 && !closing) {
                    long next = waiting.poll();
                    if (next != 0) {
                        c.due = next;
                        sendNext = true;
                    } else {
                        idle.add(c);
                    }
                }
            }
            if (due == 0) {
                synchronized (this) {
                    fail(c); // a response nobody asked for: the server is broken
                }
                return false;
            }
            if (outcome == Connection.OK) {
                latency.recordValue(Math.max(0, now - due));
                completed.incrementAndGet();
                tally(tally.completed);
            } else if (outcome == Connection.SHED) {
                shedLatency.recordValue(Math.max(0, now - due));
                shed.incrementAndGet();
                tally(tally.shed);
            } else {
                errors.incrementAndGet();
                tally(tally.failed);
            }
            if (closing) {
                synchronized (this) {
                    fail(c); // its request is accounted for above
                }
                return false;
            }
            if (sendNext) {
                send(c);
            }
            return true;
        }

        /** Counts an answer that came in now in {@code slot}, if there is one. */
        private void tally(AtomicLongArray slot) {
            Tally t = tally;
            if (t != null && slot != null) {
                t.add(slot, System.nanoTime());
            }
        }

        void stop() {
            running = false;
            selector.wakeup();
        }

        @Override
        public void close() throws IOException {
            running = false;
            for (Connection c : all) {
                try {
                    c.channel.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
            selector.close();
        }
    }

    /**
     * One keep-alive connection: its due time (guarded by the run's lock) and the response it is reading (the
     * reader's alone). Responses are parsed from bytes: status, Content-Length and Connection: close.
     */
    private static final class Connection {
        static final int INCOMPLETE = 0;
        static final int OK = 1;
        static final int WRONG = 2;
        static final int BROKEN = 3;
        /** A 503 with Retry-After: refused by the server on purpose; the connection stays usable unless it says close. */
        static final int SHED = 4;
        final SocketChannel channel;
        final int size;
        /** The request, a buffer of this connection's own so that sending allocates nothing. */
        final ByteBuffer request;
        /** When the request in flight was due; 0 when none is. */
        long due;
        volatile boolean closed;
        boolean mustClose;
        private final byte[] head = new byte[MAX_HEAD];
        private int headLength;
        private boolean inBody;
        private long bodyLeft;
        private int status;
        private long contentLength;
        private boolean retryAfter;

        Connection(SocketChannel channel, int size, byte[] request) {
            this.channel = channel;
            this.size = size;
            this.request = ByteBuffer.wrap(request);
        }

        /** Takes bytes of the current response from {@code in}; says whether it is complete and how it went. */
        int consume(ByteBuffer in) {
            while (!inBody) {
                if (!in.hasRemaining()) {
                    return INCOMPLETE;
                }
                if (headLength == MAX_HEAD) {
                    return BROKEN;
                }
                byte b = in.get();
                head[headLength++] = b;
                if (b == '\n' && headLength >= 4 && head[headLength - 2] == '\r' && head[headLength - 3] == '\n'
                        && head[headLength - 4] == '\r') {
                    if (!parseHead()) {
                        return BROKEN;
                    }
                    inBody = true;
                    bodyLeft = contentLength;
                }
            }
            int take = (int) Math.min(bodyLeft, in.remaining());
            in.position(in.position() + take);
            bodyLeft -= take;
            if (bodyLeft > 0) {
                return INCOMPLETE;
            }
            boolean ok = status == 200 && contentLength == size;
            headLength = 0; // ready for the next response; mustClose stays for the caller to see
            inBody = false;
            return ok ? OK : status == 503 && retryAfter ? SHED : WRONG;
        }

        /** Reads the status, Content-Length and Connection from the head's bytes; false if it is not a usable head. */
        private boolean parseHead() {
            int end = headLength - 4;
            // "HTTP/1.1 200 ..."
            if (end < 12 || head[0] != 'H' || head[4] != '/' || head[8] != ' ') {
                return false;
            }
            status = 0;
            for (int i = 9; i < 12; i++) {
                if (head[i] < '0' || head[i] > '9') {
                    return false;
                }
                status = status * 10 + head[i] - '0';
            }
            contentLength = -1;
            mustClose = false;
            retryAfter = false;
            int line = indexOfLineEnd(0, end) + 2;
            while (line < end) {
                int lineEnd = indexOfLineEnd(line, end);
                if (startsWithIgnoreCase(line, lineEnd, "content-length:")) {
                    long n = 0;
                    boolean digits = false;
                    for (int i = line + "content-length:".length(); i < lineEnd; i++) {
                        byte b = head[i];
                        if (b >= '0' && b <= '9') {
                            n = n * 10 + b - '0';
                            digits = true;
                        } else if (b != ' ' && b != '\t') {
                            return false;
                        }
                    }
                    if (!digits) {
                        return false;
                    }
                    contentLength = n;
                } else if (startsWithIgnoreCase(line, lineEnd, "retry-after:")) {
                    retryAfter = true;
                } else if (startsWithIgnoreCase(line, lineEnd, "connection:")) {
                    String value = new String(head, line, lineEnd - line, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
                    mustClose = value.contains("close");
                }
                line = lineEnd + 2;
            }
            // Chunked or close-delimited bodies are not what the servers measured here send.
            return contentLength >= 0;
        }

        private int indexOfLineEnd(int from, int end) {
            for (int i = from; i < end - 1; i++) {
                if (head[i] == '\r' && head[i + 1] == '\n') {
                    return i;
                }
            }
            return end;
        }

        private boolean startsWithIgnoreCase(int from, int end, String prefix) {
            if (end - from < prefix.length()) {
                return false;
            }
            for (int i = 0; i < prefix.length(); i++) {
                int b = head[from + i];
                if (b >= 'A' && b <= 'Z') {
                    b += 'a' - 'A';
                }
                if (b != prefix.charAt(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A FIFO of due times (never 0) as primitive longs, so that a backlog allocates nothing per request. */
    private static final class DueTimes {
        private long[] ring = new long[1024];
        private int head;
        private int size;

        void add(long due) {
            if (size == ring.length) {
                long[] bigger = new long[ring.length * 2];
                for (int i = 0; i < size; i++) {
                    bigger[i] = ring[(head + i) % ring.length];
                }
                ring = bigger;
                head = 0;
            }
            ring[(head + size) % ring.length] = due;
            size++;
        }

        /** The oldest due time, removed; 0 when there is none. */
        long poll() {
            if (size == 0) {
                return 0;
            }
            long due = ring[head];
            head = (head + 1) % ring.length;
            size--;
            return due;
        }
    }
}
