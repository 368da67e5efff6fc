package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.simulator.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code riptide demo} runs its tour over real TCP and reports every lookup found, before and after a node fails. */
class DemoCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Riptide.commandLine(Scenarios.builtIn(), false);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void theTourFindsEveryObjectFromEveryNodeBeforeAndAfterAFailure() {
        assertEquals(0, run("demo", "--nodes", "6", "--objects", "3", "--duration", "1s", "--status-every", "500ms"), err.toString());
        String text = out.toString();
        assertTrue(text.contains("Overlay formed: 6 nodes joined"), text);
        Matcher m = Pattern.compile("=> found (\\d+) of (\\d+) lookups").matcher(text);
        assertTrue(m.find(), text);
        assertEquals("18", m.group(1), text);
        assertEquals("18", m.group(2), text);
        assertTrue(text.contains("Stopping node 5"), text);
        assertTrue(m.find(), text);
        assertEquals("15", m.group(1), text);
        assertEquals("15", m.group(2), text);
        assertTrue(text.contains("--join 127.0.0.1:"), text);
        assertTrue(text.trim().endsWith("demo stopped"), text);
    }

    @Test
    void tooFewNodesIsAUsageError() {
        assertEquals(2, run("demo", "--nodes", "1"));
        assertTrue(err.toString().contains("--nodes must be between 2 and 64, got 1"), err.toString());
    }

    @Test
    void theRootHelpListsDemo() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("demo"), out.toString());
    }
}
