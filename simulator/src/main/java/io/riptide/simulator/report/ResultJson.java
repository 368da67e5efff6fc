package io.riptide.simulator.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A scenario's {@code result.json}, built key by key and written byte-for-byte reproducibly: keys in
 * insertion order, doubles by {@link NumberText}'s rule, two-space indent, one key per line, arrays on one line, {@code \n} line ends.
 * Put only results in it, never timestamps or wall-clock durations, so the same seed gives the same file.
 * Non-finite doubles become {@code null}, since JSON has no NaN.
 */
public final class ResultJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
            // Decimals read back exactly as written, so a result copied from another file keeps its bytes.
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
    private final ObjectNode node;

    /** An empty top-level object. */
    public ResultJson() {
        this(JsonNodeFactory.instance.objectNode());
    }

    private ResultJson(ObjectNode node) {
        this.node = node;
    }

    /**
     * The result in {@code file}, to add keys to: written again unchanged it gives the same bytes. Used
     * to build a summary of several runs on top of one run's result.
     */
    public static ResultJson read(Path file) throws IOException {
        JsonNode read = MAPPER.readTree(Files.readAllBytes(file));
        if (!(read instanceof ObjectNode)) {
            throw new IOException(file + " does not hold a JSON object");
        }
        return new ResultJson((ObjectNode) read);
    }

    /** Adds a value as read from another result (a copy of it; {@code null} for JSON null). */
    public ResultJson put(String key, JsonNode value) {
        fresh(key).set(key, value == null ? JsonNodeFactory.instance.nullNode() : value.deepCopy());
        return this;
    }

    /** Adds a string. */
    public ResultJson put(String key, String value) {
        fresh(key).put(key, value);
        return this;
    }

    /** Adds an integer. */
    public ResultJson put(String key, long value) {
        fresh(key).put(key, value);
        return this;
    }

    /** Adds a double, rounded to six significant digits. */
    public ResultJson put(String key, double value) {
        fresh(key).set(key, number(value));
        return this;
    }

    /** Adds a boolean. */
    public ResultJson put(String key, boolean value) {
        fresh(key).put(key, value);
        return this;
    }

    /** Adds an array of doubles, each rounded to six significant digits. */
    public ResultJson put(String key, double[] values) {
        ArrayNode array = fresh(key).putArray(key);
        for (double v : values) {
            array.add(number(v));
        }
        return this;
    }

    /** Adds an array of integers. */
    public ResultJson put(String key, long[] values) {
        ArrayNode array = fresh(key).putArray(key);
        for (long v : values) {
            array.add(v);
        }
        return this;
    }

    /** Adds an array of strings. */
    public ResultJson put(String key, List<String> values) {
        ArrayNode array = fresh(key).putArray(key);
        values.forEach(array::add);
        return this;
    }

    /** Adds a nested object under {@code key} and returns it for filling. */
    public ResultJson object(String key) {
        return new ResultJson(fresh(key).putObject(key));
    }

    /** Adds an array of objects under {@code key} and returns it, for appending one object per row. */
    public ObjectList objects(String key) {
        return new ObjectList(fresh(key).putArray(key));
    }

    /** An array of objects in a result (a table's rows), filled one object at a time. */
    public static final class ObjectList {
        private final ArrayNode array;

        private ObjectList(ArrayNode array) {
            this.array = array;
        }

        /** Appends an empty object and returns it for filling. */
        public ResultJson add() {
            return new ResultJson(array.addObject());
        }
    }

    /** The JSON text, ending in a newline. */
    public String toJson() {
        // Objects one key per line; arrays stay on one line so long series do not swamp the file.
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));
        try {
            return MAPPER.writer(printer).writeValueAsString(node) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@link #toJson()} to {@code file} as UTF-8, creating parent directories. */
    public void write(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, toJson(), StandardCharsets.UTF_8);
    }

    private ObjectNode fresh(String key) {
        // A second put of the same key would silently replace a figure; that is always a bug.
        if (node.has(key)) {
            throw new IllegalArgumentException("key already present in result: " + key);
        }
        return node;
    }

    private static JsonNode number(double value) {
        return Double.isFinite(value)
                ? JsonNodeFactory.instance.numberNode(NumberText.round(value))
                : JsonNodeFactory.instance.nullNode();
    }
}
