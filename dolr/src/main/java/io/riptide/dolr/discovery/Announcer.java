package io.riptide.dolr.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import javax.jmdns.JmDNS;
import javax.jmdns.ServiceInfo;

/**
 * Announces one node on one interface as {@value Announcement#SERVICE_TYPE} until closed; closing
 * sends the goodbye, so browsers forget the node at once instead of when the record expires.
 */
public final class Announcer implements AutoCloseable {
    private final JmDNS mdns;
    private final MdnsInterface where;
    private final Announcement what;
    /** JmDNS caches what every host on the link sends, answering or not: bounded like a browser's. */
    private final RecordCacheBound cacheBound;

    private Announcer(JmDNS mdns, MdnsInterface where, Announcement what) {
        this.mdns = mdns;
        this.where = where;
        this.what = what;
        this.cacheBound = RecordCacheBound.start(mdns);
    }

    /** Starts answering for {@code what} on {@code where} (and only there). */
    public static Announcer start(MdnsInterface where, Announcement what) {
        JmDNS mdns = null;
        try {
            mdns = JmDNS.create(where.address(), "riptide-" + what.nodeId().shortHex());
            mdns.registerService(ServiceInfo.create(Announcement.SERVICE_TYPE, what.instanceName(), what.overlay().port(), 0, 0,
                    what.toTxt()));
            return new Announcer(mdns, where, what);
        } catch (IOException e) {
            closeQuietly(mdns);
            throw new UncheckedIOException("cannot announce on " + where + ": " + e.getMessage(), e);
        }
    }

    public MdnsInterface where() {
        return where;
    }

    public Announcement what() {
        return what;
    }

    @Override
    public void close() {
        cacheBound.close();
        mdns.unregisterAllServices();
        closeQuietly(mdns);
    }

    static void closeQuietly(JmDNS mdns) {
        if (mdns != null) {
            try {
                mdns.close();
            } catch (IOException e) {
                // Closing: the records expire by themselves.
            }
        }
    }
}
