package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.cli.config.ConfigBinding;
import io.riptide.cli.config.ConfigEntry;
import io.riptide.cli.config.ConfigFile;
import io.riptide.core.crypto.PublicKey;
import io.riptide.simulator.scenario.Scenarios;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The example config files in {@code docs/examples/} (one per role, named after its command) parse
 * with no errors against today's options, and {@code docs/configuration.md} shows each one as it is,
 * so neither can rot.
 */
class ExampleConfigsTest {
    private static final Path DOCS = Path.of("../docs");

    @Test
    void everyRoleHasAnExample() throws Exception {
        assertEquals(List.of("cache-manager.conf", "gateway.conf", "node.conf", "proxy.conf"), examples().stream()
                .map(p -> p.getFileName().toString()).toList());
    }

    @Test
    void everyExampleParsesForItsCommandWithNoErrors() throws Exception {
        for (Path example : examples()) {
            String role = example.getFileName().toString().replace(".conf", "");
            CommandLine root = Riptide.commandLine(Scenarios.builtIn(), false);
            CommandLine command = root.getSubcommands().get(role);
            assertTrue(command != null, "no command '" + role + "' for " + example);
            ConfigFile file = ConfigFile.read(example);
            assertEquals(List.of(), ConfigBinding.bind(file, command.getCommandSpec()).errors(), example.toString());
            // Parsing for real also checks that the file gives every required option.
            assertDoesNotThrow(() -> root.parseArgs(role, "--config", example.toString()), example.toString());
            for (ConfigEntry e : file.entries()) {
                if (e.value().startsWith("ed25519:")) {
                    assertDoesNotThrow(() -> PublicKey.parse(e.value()), e.where());
                }
            }
        }
    }

    @Test
    void theConfigurationGuideShowsEachExampleAsItIs() throws Exception {
        String guide = Files.readString(DOCS.resolve("configuration.md"), StandardCharsets.UTF_8);
        for (Path example : examples()) {
            String text = Files.readString(example, StandardCharsets.UTF_8);
            assertTrue(guide.contains(text), "docs/configuration.md shows " + example.getFileName() + " as it is");
        }
    }

    private static List<Path> examples() throws Exception {
        try (Stream<Path> files = Files.list(DOCS.resolve("examples"))) {
            return files.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
        }
    }
}
