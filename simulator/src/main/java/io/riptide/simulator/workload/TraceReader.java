package io.riptide.simulator.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Reads a web client trace in the Boston University format of {@code shared/traces} (gzip or plain,
 * latin-1, tab-separated, a {@code #} header; columns ts_sec, ts_usec, user_id, machine,
 * session_start, group, month_dir, url, bytes, retrieval_s). A malformed line is an error naming
 * the file and the line.
 */
public final class TraceReader {
    private TraceReader() {
    }

    /** The first {@code limit} requests of the trace at {@code file}, in file order. */
    public static List<TraceRequest> read(Path file, int limit) throws IOException {
        List<TraceRequest> out = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = file.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
             BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1))) {
            String line;
            int number = 0;
            while ((line = lines.readLine()) != null && out.size() < limit) {
                number++;
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                out.add(parse(file, number, line));
            }
        }
        return out;
    }

    private static TraceRequest parse(Path file, int number, String line) throws IOException {
        String[] f = line.split("\t", -1);
        if (f.length < 10) {
            throw new IOException(file + ":" + number + ": expected 10 tab-separated columns, found " + f.length);
        }
        try {
            long micros = Long.parseLong(f[0]) * 1_000_000L + Long.parseLong(f[1]);
            long bytes = Long.parseLong(f[8]);
            if (bytes < 0) {
                throw new NumberFormatException("negative size " + bytes);
            }
            if (f[7].isEmpty()) {
                throw new IOException(file + ":" + number + ": empty URL");
            }
            return new TraceRequest(micros, f[2], f[5], f[7], bytes);
        } catch (NumberFormatException e) {
            throw new IOException(file + ":" + number + ": " + e.getMessage(), e);
        }
    }
}
