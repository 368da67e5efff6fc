package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --config FILE} on the real commands: the exact report and exit code 2 for each kind of bad file. */
class ConfigCommandLineTest {
    private static final String N = System.lineSeparator();

    @TempDir
    Path dir;

    private final CliRun cli = new CliRun();

    private Path file(String name, String... lines) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, List.of(lines));
        return f;
    }

    private static String help(String command) {
        return "Try 'riptide " + command + " --help' for the options and their defaults." + N;
    }

    @Test
    void everyBadLineOfANodeConfigIsReportedAtOnceWithItsLineNumber() throws Exception {
        Path f = file("node.conf",
                "# a node with four mistakes",
                "prot = 7101",
                "port = 7101",
                "status-every = often",
                "port = 7102",
                "join 10.0.0.1:7101",
                "frobnicate = yes");
        assertEquals(2, cli.run("node", "--config", f.toString()));
        assertEquals("riptide node: 5 errors in " + f + " (nothing was started):" + N
                + f + ":2: unknown option 'prot' for 'riptide node'; did you mean 'port'?" + N
                + f + ":4: Invalid value for option '--status-every': expected a duration such as 500ms, 10s, 2m or 1h, got 'often'" + N
                + f + ":5: 'port' is already set on line 3; give it once" + N
                + f + ":6: expected 'key = value', got 'join 10.0.0.1:7101'" + N
                + f + ":7: unknown option 'frobnicate' for 'riptide node'; see 'riptide node --help' for its options" + N
                + help("node"), cli.err());
        assertEquals("", cli.out(), "nothing ran");
    }

    @Test
    void aBadValueInTheFileReadsAsTheSameValueOnTheCommandLine() throws Exception {
        CliRun onCommandLine = new CliRun();
        assertEquals(2, onCommandLine.run("gateway", "--key", "k", "--port", "lots"));
        String said = "Invalid value for option '--port': 'lots' is not an int";
        assertEquals("riptide gateway: " + said + N + help("gateway"), onCommandLine.err());
        Path f = file("gateway.conf", "key = k", "port = lots");
        assertEquals(2, cli.run("gateway", "--config", f.toString()));
        assertEquals("riptide gateway: 1 error in " + f + " (nothing was started):" + N + f + ":2: " + said + N + help("gateway"),
                cli.err());
    }

    @Test
    void aMissingConfigFileIsAUsageError() {
        Path missing = dir.resolve("nope.conf");
        assertEquals(2, cli.run("proxy", "--config", missing.toString()));
        assertEquals("riptide proxy: --config: no such file: " + missing + " (a relative path is taken from "
                + Path.of("").toAbsolutePath() + ")" + N + help("proxy"), cli.err());
    }

    @Test
    void valuesFromTheFileAreCheckedByTheCommandLikeAnyOther() throws Exception {
        // The file's seeds reach the proxy, which wants a provider to trust before it uses them.
        Path f = file("proxy.conf", "port = 0", "seed = 127.0.0.1:7101, 127.0.0.1:7102");
        assertEquals(2, cli.run("proxy", "--config", f.toString()));
        assertEquals("riptide proxy: --seed needs --provider: whose objects should the proxy trust? (from " + f + ":2)" + N
                + help("proxy"), cli.err());
    }

    @Test
    void theCommandLineWinsOverTheFile() throws Exception {
        Path f = file("node.conf", "port = 0", "join = localhost");
        assertEquals(2, cli.run("node", "--config", f.toString(), "--join", "127.0.0.1:http"));
        assertEquals("riptide node: --join: port is not a number in '127.0.0.1:http'" + N + help("node"), cli.err());
        CliRun fromFile = new CliRun();
        assertEquals(2, fromFile.run("node", "--config", f.toString()));
        assertEquals("riptide node: --join: expected HOST:PORT, got 'localhost' (from " + f + ":2)" + N + help("node"), fromFile.err());
    }

    @Test
    void aRequiredOptionMayComeFromTheFileAndACheckOfItPointsAtItsLine() throws Exception {
        Path f = file("node.conf", "port = 70000");
        assertEquals(2, cli.run("node", "--config", f.toString()));
        assertEquals("riptide node: --port must be between 0 and 65535, got 70000 (from " + f + ":1)" + N + help("node"), cli.err());
    }
}
