package io.riptide.dolr.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javax.jmdns.impl.DNSCache;
import javax.jmdns.impl.DNSRecord;
import javax.jmdns.impl.constants.DNSRecordClass;
import org.junit.jupiter.api.Test;

/**
 * A stranger on the link floods the mDNS cache with records under fresh names; the bound keeps the
 * cache at its size and keeps Riptide's announcements, dropping the stranger's records first.
 */
class RecordCacheBoundTest {
    private static DNSRecord text(String name) {
        return new DNSRecord.Text(name, DNSRecordClass.CLASS_IN, true, 3600, new byte[] {1, 'x'});
    }

    @Test
    void aFloodOfForeignRecordsIsTrimmedToTheBoundAndRiptidesAnnouncementsStay() {
        DNSCache cache = new DNSCache();
        RecordCacheBound bound = RecordCacheBound.manual(cache, 100);
        for (int i = 0; i < 10; i++) {
            cache.addDNSEntry(text("node-" + i + "." + Announcement.SERVICE_TYPE));
        }
        for (int i = 0; i < 10_000; i++) {
            cache.addDNSEntry(text("junk-" + i + "._flood._tcp.local."));
        }
        assertEquals(10_010, cache.allValues().size(), "JmDNS's cache alone keeps everything it is sent");
        assertEquals(9_910, bound.trim());
        assertEquals(100, cache.allValues().size());
        for (int i = 0; i < 10; i++) {
            assertEquals(1, cache.getDNSEntryList("node-" + i + "." + Announcement.SERVICE_TYPE).size(), "announcement " + i + " kept");
        }
        assertEquals(9_910, bound.trimmed());
        assertEquals(0, bound.trim(), "within the bound nothing more goes");
    }

    @Test
    void onlyRiptidesOwnRecordsBeyondTheBoundGoOldestFirst() throws Exception {
        DNSCache cache = new DNSCache();
        RecordCacheBound bound = RecordCacheBound.manual(cache, 3);
        for (int i = 0; i < 5; i++) {
            cache.addDNSEntry(text("node-" + i + "." + Announcement.SERVICE_TYPE));
            Thread.sleep(2); // distinct creation times
        }
        assertEquals(2, bound.trim());
        assertTrue(cache.getDNSEntryList("node-0." + Announcement.SERVICE_TYPE).isEmpty());
        assertTrue(cache.getDNSEntryList("node-1." + Announcement.SERVICE_TYPE).isEmpty());
        assertEquals(1, cache.getDNSEntryList("node-4." + Announcement.SERVICE_TYPE).size());
    }
}
