package io.riptide.simulator.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScenarioOptionsTest {
    private final ScenarioOptions options = new ScenarioOptions(Map.of(
            "nodes", "10_000", "fail-fraction", "0.2", "bad", "ten", "verbose", "true", "typo", "1"));

    @Test
    void typedGettersParseValuesAndFallBackToDefaults() {
        assertEquals(10_000, options.getInt("nodes", 5));
        assertEquals(0.2, options.getFraction("fail-fraction", 0.5));
        assertTrue(options.getBoolean("verbose", false));
        assertEquals(7, options.getInt("absent", 7));
        assertEquals("x", options.getString("absent-too", "x"));
        assertFalse(options.has("nothing"));
    }

    @Test
    void badValuesNameTheOptionAndTheProblem() {
        ScenarioOptionException notInt = assertThrows(ScenarioOptionException.class, () -> options.getInt("bad", 1));
        assertEquals("--bad: expected an integer, got 'ten'", notInt.getMessage());
        ScenarioOptionException range = assertThrows(ScenarioOptionException.class, () -> options.getInt("nodes", 1, 1, 100));
        assertEquals("--nodes: must be between 1 and 100, got 10000", range.getMessage());
        assertThrows(ScenarioOptionException.class, () -> new ScenarioOptions(Map.of("f", "1.5")).getFraction("f", 0));
        assertThrows(ScenarioOptionException.class, () -> new ScenarioOptions(Map.of("f", "NaN")).getDouble("f", 0));
        assertThrows(ScenarioOptionException.class, () -> options.getBoolean("bad", false));
    }

    @Test
    void reportsOptionsNobodyRead() {
        options.getInt("nodes", 1);
        options.getFraction("fail-fraction", 0);
        assertEquals(Set.of("bad", "typo", "verbose"), options.unread());
    }

    @Test
    void registryListsByNameAndRejectsDuplicates() {
        Scenarios builtIn = Scenarios.builtIn();
        assertTrue(builtIn.find("topology").isPresent());
        assertTrue(builtIn.find("nope").isEmpty());
        assertThrows(IllegalArgumentException.class, () -> builtIn.with(new TopologyScenario()));
    }
}
