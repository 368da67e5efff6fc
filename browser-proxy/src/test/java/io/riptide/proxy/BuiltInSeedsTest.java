package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.runtime.NodeAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The built-in seed list: the shipped one reads cleanly, comments and blank lines are skipped, a bad line is named. */
class BuiltInSeedsTest {
    @Test
    void theShippedListReads() {
        assertEquals(List.of(), BuiltInSeeds.load(), "this build ships no public seeds");
    }

    @Test
    void entriesCommentsAndBlankLines() {
        assertEquals(List.of(new NodeAddress("10.0.0.1", 7101), new NodeAddress("::1", 7102)),
                BuiltInSeeds.parse("# seeds\n\n10.0.0.1:7101   # the first\n  [::1]:7102\n#\n"));
        assertEquals(List.of(), BuiltInSeeds.parse(""));
    }

    @Test
    void aMalformedLineIsAnErrorNamingIt() {
        String message = assertThrows(IllegalArgumentException.class, () -> BuiltInSeeds.parse("# x\n10.0.0.1\n")).getMessage();
        assertTrue(message.startsWith("built-in seed list, line 2: expected HOST:PORT"), message);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BuiltInSeeds.parse("h:0")).getMessage().contains("port 0"));
    }
}
