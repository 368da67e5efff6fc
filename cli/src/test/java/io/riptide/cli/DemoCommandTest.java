package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code riptide demo} runs its tour over real TCP and reports every lookup found, before and after a node fails. */
class DemoCommandTest {
    private final CliRun cli = new CliRun();

    @Test
    void theTourFindsEveryObjectFromEveryNodeBeforeAndAfterAFailure() {
        assertEquals(0, cli.run("demo", "--nodes", "6", "--objects", "3", "--duration", "1s", "--status-every", "500ms"), cli.err());
        String text = cli.out();
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
        assertEquals(2, cli.run("demo", "--nodes", "1"));
        assertTrue(cli.err().contains("--nodes must be between 2 and 64, got 1"), cli.err());
    }

    @Test
    void theRootHelpListsDemo() {
        assertEquals(0, cli.run("--help"));
        assertTrue(cli.out().contains("demo"), cli.out());
    }
}
