package io.riptide.simulator.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultJsonTest {
    @TempDir
    Path dir;

    private static ResultJson sample(double mean) {
        ResultJson r = new ResultJson().put("scenario", "demo").put("nodes", 1100L).put("meanMs", mean);
        r.object("latency").put("p50", 12.345678912).put("samples", new double[] {0.1, 1e-9, 123456789.0});
        r.put("ok", true).put("names", List.of("a", "b"));
        return r;
    }

    @Test
    void sameFiguresGiveByteIdenticalFiles() throws Exception {
        Path a = dir.resolve("a/result.json");
        Path b = dir.resolve("b/result.json");
        sample(1.0 / 3).write(a);
        sample(1.0 / 3).write(b);
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }

    @Test
    void keysKeepInsertionOrderAndNumbersFollowTheRule() {
        String expected = "{\n"
                + "  \"scenario\" : \"demo\",\n"
                + "  \"nodes\" : 1100,\n"
                + "  \"meanMs\" : 0.333333,\n"
                + "  \"latency\" : {\n"
                + "    \"p50\" : 12.3457,\n"
                + "    \"samples\" : [ 0.1, 0.000000001, 123457000 ]\n"
                + "  },\n"
                + "  \"ok\" : true,\n"
                + "  \"names\" : [ \"a\", \"b\" ]\n"
                + "}\n";
        assertEquals(expected, sample(1.0 / 3).toJson());
    }

    @Test
    void nonFiniteBecomesNullAndRepeatedKeysAreRejected() {
        assertEquals("{\n  \"x\" : null\n}\n", new ResultJson().put("x", Double.NaN).toJson());
        assertThrows(IllegalArgumentException.class, () -> new ResultJson().put("x", 1L).put("x", 2L));
    }

    @Test
    void anArrayOfObjectsHoldsOneObjectPerRowInOrder() throws Exception {
        ResultJson r = new ResultJson();
        ResultJson.ObjectList rows = r.objects("rows");
        rows.add().put("size", 1024L).put("p50_ms", 0.1234567);
        rows.add().put("size", 4096L).put("p50_ms", Double.NaN);
        r.put("after", true);
        JsonNode json = new ObjectMapper().readTree(r.toJson());
        assertEquals(2, json.get("rows").size());
        assertEquals(1024, json.get("rows").get(0).get("size").asInt());
        assertEquals("0.123457", json.get("rows").get(0).get("p50_ms").asText());
        assertTrue(json.get("rows").get(1).get("p50_ms").isNull());
        assertTrue(json.get("after").asBoolean());
        assertThrows(IllegalArgumentException.class, () -> r.objects("rows"));
        assertThrows(IllegalArgumentException.class, () -> rows.add().put("k", 1L).put("k", 2L));
    }

    @Test
    void numberTextRoundsToSixSignificantDigitsWithoutExponent() {
        assertEquals("2", NumberText.format(2.0));
        assertEquals("0", NumberText.format(-0.0));
        assertEquals("1.23457", NumberText.format(1.234567));
        assertEquals("-0.000123457", NumberText.format(-0.0001234567));
        assertEquals("100000000000000000000", NumberText.format(1e20));
        assertEquals("0.1", NumberText.format(0.1));
        assertEquals("12.3", NumberText.format(12.345, 3));
    }

    @Test
    void aResultReadBackAndWrittenAgainKeepsItsBytesAndTakesMoreKeys() throws Exception {
        Path file = dir.resolve("result.json");
        ResultJson original = sample(1.0 / 3).put("big", 1e20).put("tiny", -0.0001234567).put("none", Double.NaN)
                .put("whole", 30.0).put("counts", new long[] {1, 2});
        original.write(file);
        ResultJson read = ResultJson.read(file);
        assertEquals(original.toJson(), read.toJson());
        JsonNode latency = new ObjectMapper().readTree(original.toJson()).get("latency");
        read.put("copied", latency).put("nothing", (JsonNode) null);
        String more = read.toJson();
        assertTrue(more.startsWith(original.toJson().substring(0, original.toJson().length() - 3)), more);
        assertTrue(more.contains("\"copied\" : {\n    \"p50\" : 12.3457,"), more);
        assertTrue(more.contains("\"nothing\" : null"), more);
        assertThrows(IllegalArgumentException.class, () -> read.put("scenario", latency));
    }
}
