package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.simulator.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code riptide node} says about itself and about arguments it cannot use, without starting a node. */
class NodeCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = Riptide.commandLine(Scenarios.builtIn(), false);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void helpExplainsEveryOptionAndItsDefault() {
        assertEquals(0, run("node", "--help"));
        String help = out.toString();
        for (String expected : new String[] {"--port", "0 picks a free one", "--host", "default: 127.0.0.1", "--join",
            "start a new overlay", "--key", "--status-every", "default: 10s", "Ctrl-C"}) {
            assertTrue(help.contains(expected), "help mentions '" + expected + "':\n" + help);
        }
    }

    @Test
    void theRootHelpListsNode() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("node"), out.toString());
    }

    @Test
    void aJoinAddressWithoutPortIsAUsageError() {
        assertEquals(2, run("node", "--port", "0", "--join", "localhost"));
        assertTrue(err.toString().contains("--join: expected HOST:PORT, got 'localhost'"), err.toString());
    }

    @Test
    void aJoinPortThatIsNotANumberIsAUsageError() {
        assertEquals(2, run("node", "--port", "0", "--join", "127.0.0.1:http"));
        assertTrue(err.toString().contains("--join: port is not a number in '127.0.0.1:http'"), err.toString());
    }

    @Test
    void aJoinPortOutOfRangeIsAUsageError() {
        assertEquals(2, run("node", "--port", "0", "--join", "127.0.0.1:70000"));
        assertTrue(err.toString().contains("--join: port out of range: 70000"), err.toString());
    }

    @Test
    void aBadStatusPeriodIsAUsageError() {
        assertEquals(2, run("node", "--port", "0", "--status-every", "often"));
        assertTrue(err.toString().contains("expected a duration such as 500ms"), err.toString());
    }

    @Test
    void thePortIsRequired() {
        assertEquals(2, run("node"));
        assertTrue(err.toString().contains("--port"), err.toString());
    }
}
