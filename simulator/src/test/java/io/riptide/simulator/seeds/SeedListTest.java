package io.riptide.simulator.seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeedListTest {
    @Test
    void rangesListsAndMixesKeepTheGivenOrder() {
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), SeedList.parse("1-5").seeds());
        assertEquals(List.of(3L, 1L, 2L), SeedList.parse("3,1,2").seeds());
        assertEquals(List.of(1L, 2L, 3L, 7L), SeedList.parse("1-3, 7").seeds());
        assertEquals(List.of(4L), SeedList.parse("4").seeds());
        assertEquals("1, 2, 3, 7", SeedList.parse("1-3,7").text());
    }

    @Test
    void badListsSayWhatIsWrong() {
        assertTrue(message("5-1").contains("goes down; write it low-high, e.g. 1-5"), message("5-1"));
        assertTrue(message("1-3,2").contains("seed 2 is listed twice"), message("1-3,2"));
        assertTrue(message("1,,2").contains("expected seeds such as 1-5 or 1,2,3"));
        assertTrue(message("x").contains("expected seeds such as 1-5 or 1,2,3"));
        assertTrue(message("-1").contains("expected seeds"));
        assertTrue(message("1-100000").contains("more than 1000 seeds"));
        assertTrue(message("").contains("expected seeds"));
    }

    private static String message(String text) {
        return assertThrows(IllegalArgumentException.class, () -> SeedList.parse(text)).getMessage();
    }
}
