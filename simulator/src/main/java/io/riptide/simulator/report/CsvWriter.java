package io.riptide.simulator.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a CSV file (RFC 4180: comma-separated, {@code \n} line ends, fields with commas, quotes or
 * line breaks quoted, quotes doubled). Doubles are printed by {@link NumberText}'s rule.
 */
public final class CsvWriter implements AutoCloseable {
    private final BufferedWriter out;
    private final int columns;

    /** Opens {@code file} (creating parent directories) and writes the header row. */
    public CsvWriter(Path file, List<String> header) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        this.columns = header.size();
        row(header.toArray());
    }

    /** Writes one row; it must have as many fields as the header. */
    public CsvWriter row(Object... fields) throws IOException {
        if (fields.length != columns) {
            throw new IllegalArgumentException("row has " + fields.length + " fields, header has " + columns);
        }
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(field(fields[i]));
        }
        out.write('\n');
        return this;
    }

    /** Writes a two-column series file: header {@code xName,yName}, then one row per point. */
    public static void series(Path file, String xName, String yName, double[] x, double[] y) throws IOException {
        if (x.length != y.length) {
            throw new IllegalArgumentException("x has " + x.length + " points, y has " + y.length);
        }
        try (CsvWriter csv = new CsvWriter(file, List.of(xName, yName))) {
            for (int i = 0; i < x.length; i++) {
                csv.row(x[i], y[i]);
            }
        }
    }

    /** The CSV text of one field. */
    static String field(Object value) {
        String text;
        if (value == null) {
            text = "";
        } else if (value instanceof Double || value instanceof Float) {
            text = NumberText.format(((Number) value).doubleValue());
        } else {
            text = value.toString();
        }
        if (text.indexOf(',') >= 0 || text.indexOf('"') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
