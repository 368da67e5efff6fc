package io.riptide.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a config file's lines are split into entries and errors, before any command gives the keys meaning. */
class ConfigFileTest {
    @Test
    void keysAndValuesKeepTheirLineNumbersAndCommentsAndBlankLinesAreSkipped() {
        ConfigFile file = ConfigFile.parse("node.conf", List.of(
                "# a node",
                "",
                "port = 7101",
                "   join=10.0.0.1:7101   ",
                "  # indented comment",
                "seed = a:1, b:2",
                "variant = accept-encoding=gzip"));
        assertEquals(List.of(
                new ConfigEntry("node.conf", 3, "port", "7101"),
                new ConfigEntry("node.conf", 4, "join", "10.0.0.1:7101"),
                new ConfigEntry("node.conf", 6, "seed", "a:1, b:2"),
                new ConfigEntry("node.conf", 7, "variant", "accept-encoding=gzip")), file.entries());
        assertEquals(List.of(), file.errors());
    }

    @Test
    void everyMalformedLineIsReportedWithItsLineNumber() {
        ConfigFile file = ConfigFile.parse("node.conf", List.of(
                "port 7101",
                "--host = 127.0.0.1",
                "join =",
                "Status Every = 10s",
                "ttl = 8"));
        assertEquals(List.of(
                "node.conf:1: expected 'key = value', got 'port 7101'",
                "node.conf:2: write the key without dashes: 'host = ...'",
                "node.conf:3: no value for 'join'; remove the line to use the default",
                "node.conf:4: 'Status Every' is not an option name (lower-case letters, digits and dashes)"),
                file.errors().stream().map(ConfigError::toString).toList());
        assertEquals(List.of(new ConfigEntry("node.conf", 5, "ttl", "8")), file.entries());
    }
}
