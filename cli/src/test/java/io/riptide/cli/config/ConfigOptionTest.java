package io.riptide.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --config FILE} on a small command of its own: values become defaults, the command line wins,
 * options from mixins are keys too, and every bad line is reported at once with picocli's own words.
 */
class ConfigOptionTest {
    @TempDir
    Path dir;

    /** A storage mixin of the kind other commands add: its options must be config keys like any other. */
    static final class Storage {
        @Option(names = "--disk-gb", defaultValue = "1")
        int diskGb;
    }

    @Command(name = "probe")
    static final class Probe {
        @Option(names = "--port", required = true)
        int port;
        @Option(names = "--host", defaultValue = "127.0.0.1")
        String host;
        @Option(names = "--seed")
        List<String> seeds = new ArrayList<>();
        @Option(names = "--verbose")
        boolean verbose;
        @Mixin
        Storage storage;
    }

    private Probe parse(String... args) {
        Probe probe = new Probe();
        CommandLine cl = new CommandLine(probe);
        cl.addMixin("config", new ConfigOption());
        cl.parseArgs(args);
        return probe;
    }

    private String file(String... lines) throws Exception {
        Path f = dir.resolve("probe.conf");
        Files.write(f, List.of(lines));
        return f.toString();
    }

    private String refusal(String... args) {
        return assertThrows(ParameterException.class, () -> parse(args)).getMessage();
    }

    @Test
    void theFileGivesDefaultsForEveryKindOfOptionIncludingMixins() throws Exception {
        String f = file("port = 7101", "host = 10.0.0.1", "seed = a:1, b:2", "seed = c:3", "verbose = true", "disk-gb = 40");
        Probe p = parse("--config", f);
        assertEquals(7101, p.port);
        assertEquals("10.0.0.1", p.host);
        assertEquals(List.of("a:1", "b:2", "c:3"), p.seeds);
        assertTrue(p.verbose);
        assertEquals(40, p.storage.diskGb);
    }

    @Test
    void theCommandLineWinsBeforeAndAfterTheConfigOption() throws Exception {
        String f = file("port = 7101", "seed = a:1, b:2", "verbose = true", "disk-gb = 40");
        Probe after = parse("--config=" + f, "--port", "9", "--seed", "z:9", "--verbose", "--disk-gb=2");
        assertEquals(9, after.port);
        assertEquals(List.of("z:9"), after.seeds);
        assertTrue(after.verbose, "a flag named on the command line is on, whatever the file says");
        assertEquals(2, after.storage.diskGb);
        Probe before = parse("--port", "9", "--seed", "z:9", "--verbose", "--config", f);
        assertEquals(9, before.port);
        assertEquals(List.of("z:9"), before.seeds);
        assertTrue(before.verbose);
        assertEquals(40, before.storage.diskGb);
    }

    @Test
    void optionsTheFileLeavesOutKeepTheirOwnDefaults() throws Exception {
        Probe p = parse("--config", file("port = 1"));
        assertEquals("127.0.0.1", p.host);
        assertEquals(List.of(), p.seeds);
        assertFalse(p.verbose);
        assertEquals(1, p.storage.diskGb);
    }

    @Test
    void aFlagTheFileTurnsOffStaysOff() throws Exception {
        assertFalse(parse("--config", file("port = 1", "verbose = false")).verbose);
    }

    @Test
    void textThatLooksLikeAPicocliVariableIsTakenLiterally() throws Exception {
        assertEquals("${HOME}", parse("--config", file("port = 1", "host = ${HOME}")).host);
    }

    @Test
    void aBadValueIsRefusedInTheWordsTheCommandLineWouldUse() throws Exception {
        String onCommandLine = refusal("--port", "lots");
        String fromFile = refusal("--config", file("port = lots"));
        assertEquals("Invalid value for option '--port': 'lots' is not an int", onCommandLine);
        assertEquals("1 error in " + dir.resolve("probe.conf") + " (nothing was started):" + System.lineSeparator()
                + dir.resolve("probe.conf") + ":1: " + onCommandLine, fromFile);
    }

    @Test
    void everyBadLineIsReportedAtOnceInFileOrder() throws Exception {
        String f = file(
                "# probe",
                "prot = 7101",
                "port = 7101",
                "colour = red",
                "port = 7102",
                "disk-gb = forty",
                "host 10.0.0.1",
                "verbose = maybe",
                "seed = a:1",
                "seed = b:2");
        String n = System.lineSeparator();
        assertEquals("6 errors in " + f + " (nothing was started):" + n
                + f + ":2: unknown option 'prot' for 'probe'; did you mean 'port'?" + n
                + f + ":4: unknown option 'colour' for 'probe'; see 'probe --help' for its options" + n
                + f + ":5: 'port' is already set on line 3; give it once" + n
                + f + ":6: Invalid value for option '--disk-gb': 'forty' is not an int" + n
                + f + ":7: expected 'key = value', got 'host 10.0.0.1'" + n
                + f + ":8: Invalid value for option '--verbose': 'maybe' is not a boolean", refusal("--config", f));
    }

    @Test
    void aMissingFileIsAUsageErrorThatSaysWhereItLooked() {
        Path missing = dir.resolve("nope.conf");
        assertEquals("--config: no such file: " + missing + " (a relative path is taken from " + Path.of("").toAbsolutePath() + ")",
                refusal("--config", missing.toString()));
    }

    @Test
    void aFileThatIsNotTextIsNamedAsSuch() throws Exception {
        Path binary = dir.resolve("probe.key.der");
        Files.write(binary, new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});
        assertEquals("--config: " + binary + " is not UTF-8 text; is it a config file?", refusal("--config", binary.toString()));
        assertEquals("--config: cannot read " + dir + ": it is a directory", refusal("--config", dir.toString()));
    }

    @Test
    void theHelpAndConfigOptionsAreNotKeys() throws Exception {
        assertEquals(List.of("disk-gb", "host", "port", "seed", "verbose"),
                List.copyOf(ConfigBinding.keys(new CommandLine(new Probe()).addMixin("config", new ConfigOption())
                        .getCommandSpec()).keySet()));
    }
}
