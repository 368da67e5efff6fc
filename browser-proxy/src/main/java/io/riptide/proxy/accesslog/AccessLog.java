package io.riptide.proxy.accesslog;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the proxy records each request. The file writer appends lines from a thread of its own: the
 * event loops only format a line and offer it to a bounded queue, never waiting for the disk; when the
 * disk falls behind by {@link #QUEUE} lines, lines are dropped and counted, rather than the proxy
 * slowing down or memory growing.
 */
public interface AccessLog extends AutoCloseable {
    /** Lines waiting for the disk at most. */
    int QUEUE = 65_536;

    /** Records {@code r}; never blocks. */
    void log(AccessRecord r);

    /** Lines dropped because the writer fell behind. */
    default long dropped() {
        return 0;
    }

    @Override
    default void close() {
    }

    /** No log. */
    AccessLog NONE = r -> { };

    /** A log appended to {@code file} (created if missing) in {@code format}. */
    static AccessLog toFile(Path file, AccessLogFormat format) {
        return new FileLog(file, format);
    }

    /** The file writer. */
    final class FileLog implements AccessLog {
        private final AccessLogFormat format;
        private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(QUEUE);
        private final LongAdder dropped = new LongAdder();
        private final BufferedWriter out;
        private final Thread writer;
        private volatile boolean closed;

        private FileLog(Path file, AccessLogFormat format) {
            this.format = format;
            try {
                Path parent = file.toAbsolutePath().getParent();
                if (parent != null) {
                    Files.createDirectories(parent);
                }
                out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open the access log " + file + ": " + e.getMessage(), e);
            }
            writer = new Thread(this::write, "riptide-access-log");
            writer.setDaemon(true);
            writer.start();
        }

        @Override
        public void log(AccessRecord r) {
            if (closed || !lines.offer(format.format(r))) {
                dropped.increment();
            }
        }

        @Override
        public long dropped() {
            return dropped.sum();
        }

        private void write() {
            List<String> batch = new ArrayList<>(1024);
            try {
                while (!closed || !lines.isEmpty()) {
                    String first = lines.poll(200, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        continue;
                    }
                    batch.add(first);
                    lines.drainTo(batch, 1023);
                    for (String line : batch) {
                        out.write(line);
                        out.newLine();
                    }
                    batch.clear();
                    if (lines.isEmpty()) {
                        out.flush(); // a line is on disk within moments of its request
                    }
                }
                out.flush();
            } catch (IOException e) {
                closed = true; // a full or lost disk: stop logging, never the proxy
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        /** Writes what is queued, then closes the file. */
        @Override
        public void close() {
            closed = true;
            try {
                writer.join(5_000);
                out.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                // nothing more to write anyway
            }
        }
    }
}
