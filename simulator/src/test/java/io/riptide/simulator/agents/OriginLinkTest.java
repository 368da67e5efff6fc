package io.riptide.simulator.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The origin link is a FIFO at its bandwidth: responses queue behind each other, an idle link does not. */
class OriginLinkTest {
    private static final long TRANSFER_16KB_AT_10MBIT = 13_107_200;
    private static final long LATENCY = 20_000_000;

    @Test
    void responsesSentTogetherQueueBehindEachOther() {
        OriginLink link = new OriginLink(10e6, LATENCY);
        assertEquals(TRANSFER_16KB_AT_10MBIT + LATENCY, link.send(0, 16 * 1024));
        assertEquals(2 * TRANSFER_16KB_AT_10MBIT + LATENCY, link.send(0, 16 * 1024));
        assertEquals(3 * TRANSFER_16KB_AT_10MBIT + LATENCY, link.send(0, 16 * 1024));
    }

    @Test
    void aResponseAfterTheQueueDrainedWaitsForNothing() {
        OriginLink link = new OriginLink(10e6, LATENCY);
        link.send(0, 16 * 1024);
        assertEquals(TRANSFER_16KB_AT_10MBIT + LATENCY, link.send(1_000_000_000, 16 * 1024));
        assertEquals(2 * TRANSFER_16KB_AT_10MBIT, link.busyNanos());
    }
}
