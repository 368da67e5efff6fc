package io.riptide.cli.bench;

import java.util.List;

/** Table 1 of the Riptide paper (section 6.2): mean latency of 20 fetches, direct and through the browser proxy. */
public final class PaperTable1 {
    /** One row of the table. */
    public record Row(int sizeBytes, double directMs, double proxyMs) {
    }

    /** The rows, smallest object first. */
    public static final List<Row> ROWS = List.of(
            new Row(1024, 1.35, 23.30),
            new Row(4096, 1.70, 24.07),
            new Row(10240, 1.90, 24.40),
            new Row(40960, 5.25, 25.35),
            new Row(102400, 9.90, 38.81),
            new Row(409600, 36.00, 63.35));

    private PaperTable1() {
    }
}
