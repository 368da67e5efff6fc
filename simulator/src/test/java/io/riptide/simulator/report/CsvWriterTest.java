package io.riptide.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvWriterTest {
    @TempDir
    Path dir;

    @Test
    void quotesFieldsThatNeedItAndDoublesQuotes() throws Exception {
        Path file = dir.resolve("out/series.csv");
        try (CsvWriter csv = new CsvWriter(file, List.of("name", "value"))) {
            csv.row("plain", 1.0 / 3);
            csv.row("a,b", 2L);
            csv.row("say \"hi\"", null);
            csv.row("two\nlines", -0.0);
        }
        assertEquals("name,value\n"
                + "plain,0.333333\n"
                + "\"a,b\",2\n"
                + "\"say \"\"hi\"\"\",\n"
                + "\"two\nlines\",0\n", Files.readString(file));
    }

    @Test
    void rowsMustMatchTheHeader() throws Exception {
        try (CsvWriter csv = new CsvWriter(dir.resolve("x.csv"), List.of("a", "b"))) {
            assertThrows(IllegalArgumentException.class, () -> csv.row("only one"));
        }
    }

    @Test
    void seriesWritesOneRowPerPoint() throws Exception {
        Path file = dir.resolve("s.csv");
        CsvWriter.series(file, "x", "y", new double[] {1, 2}, new double[] {0.5, 1});
        assertEquals("x,y\n1,0.5\n2,1\n", Files.readString(file));
    }
}
