package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Range field as RFC 9110 §14.1.2 reads it, resolved against a body of 10 bytes. */
class ByteRangeTest {
    private static ByteRange.Asked of(String field) {
        return ByteRange.of(field, 10);
    }

    @Test
    void oneRangeIsResolvedAgainstTheLength() {
        assertEquals(new ByteRange.Part(new ByteRange(0, 0)), of("bytes=0-0"));
        assertEquals(new ByteRange.Part(new ByteRange(3, 9)), of("bytes=3-"));
        assertEquals(new ByteRange.Part(new ByteRange(3, 9)), of("bytes=3-400"), "the last byte is capped at the end");
        assertEquals(new ByteRange.Part(new ByteRange(7, 9)), of("bytes=-3"));
        assertEquals(new ByteRange.Part(new ByteRange(0, 9)), of("bytes=-30"), "a suffix longer than the body is the body");
        assertEquals(new ByteRange.Part(new ByteRange(2, 4)), of("Bytes = 2-4".replace(" = ", "=")));
    }

    @Test
    void whatCannotBeMetIs416AndWhatIsNotUnderstoodIsTheWholeResponse() {
        assertEquals(new ByteRange.Unsatisfiable(), of("bytes=10-"));
        assertEquals(new ByteRange.Unsatisfiable(), of("bytes=-0"));
        assertEquals(new ByteRange.Unsatisfiable(), ByteRange.of("bytes=0-", 0));
        assertEquals(new ByteRange.Whole(), of(null));
        assertEquals(new ByteRange.Whole(), of("items=0-1"));
        assertEquals(new ByteRange.Whole(), of("bytes=5-2"));
        assertEquals(new ByteRange.Whole(), of("bytes=0-1,4-5"));
        assertEquals(new ByteRange.Whole(), of("bytes=x-1"));
        assertEquals(new ByteRange.Whole(), of("bytes=99999999999999999999-"));
        assertEquals("bytes 2-4/10", new ByteRange(2, 4).contentRange(10));
    }
}
