package io.riptide.dolr.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.jmdns.JmDNS;
import javax.jmdns.ServiceEvent;
import javax.jmdns.ServiceInfo;
import javax.jmdns.ServiceListener;

/**
 * Browses one interface for {@value Announcement#SERVICE_TYPE} until closed, and tells a listener of
 * each node announced (once per node and address; again if it moves). Records that are not a
 * complete Riptide announcement are ignored. Thread-safe; the listener runs on JmDNS's threads.
 */
public final class Browser implements AutoCloseable {
    private final JmDNS mdns;
    private final MdnsInterface where;
    private final Consumer<Announcement> listener;
    /** By DNS-SD instance name: what each announced, as last resolved. */
    private final Map<String, Announcement> found = new LinkedHashMap<>();
    private final CountDownLatch first = new CountDownLatch(1);

    private Browser(JmDNS mdns, MdnsInterface where, Consumer<Announcement> listener) {
        this.mdns = mdns;
        this.where = where;
        this.listener = listener;
    }

    /** Starts browsing on {@code where} (and only there); {@code listener} hears of every node found from now on. */
    public static Browser start(MdnsInterface where, Consumer<Announcement> listener) {
        JmDNS mdns = null;
        try {
            mdns = JmDNS.create(where.address(), "riptide-proxy-" + HexFormat.of().toHexDigits(new SecureRandom().nextInt()));
            Browser browser = new Browser(mdns, where, listener);
            mdns.addServiceListener(Announcement.SERVICE_TYPE, browser.new Listener());
            return browser;
        } catch (IOException e) {
            Announcer.closeQuietly(mdns);
            throw new UncheckedIOException("cannot browse on " + where + ": " + e.getMessage(), e);
        }
    }

    private final class Listener implements ServiceListener {
        @Override
        public void serviceAdded(ServiceEvent event) {
            // Asks for the SRV, TXT and address records; serviceResolved follows when they arrive.
            event.getDNS().requestServiceInfo(event.getType(), event.getName());
        }

        @Override
        public void serviceRemoved(ServiceEvent event) {
            synchronized (found) {
                found.remove(event.getName());
            }
        }

        @Override
        public void serviceResolved(ServiceEvent event) {
            resolved(event.getName(), event.getInfo());
        }
    }

    private void resolved(String name, ServiceInfo info) {
        if (info == null) {
            return;
        }
        Map<String, String> txt = new LinkedHashMap<>();
        for (var keys = info.getPropertyNames(); keys.hasMoreElements(); ) {
            String key = keys.nextElement();
            String value = info.getPropertyString(key);
            if (value != null) {
                txt.put(key, value);
            }
        }
        InetAddress[] addresses = info.getInetAddresses();
        String source = addresses.length == 0 ? null : addresses[0].getHostAddress();
        Optional<Announcement> a = Announcement.fromTxt(txt, source);
        if (a.isEmpty()) {
            return; // not (yet) a complete announcement: JmDNS often resolves the SRV before the TXT
        }
        synchronized (found) {
            if (a.get().equals(found.put(name, a.get()))) {
                return;
            }
        }
        first.countDown();
        listener.accept(a.get());
    }

    /** Waits until at least one node was found, up to {@code timeout}; true if one was. */
    public boolean awaitFirst(Duration timeout) throws InterruptedException {
        return first.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Every node announced and not withdrawn, in the order found. */
    public List<Announcement> found() {
        synchronized (found) {
            return new ArrayList<>(found.values());
        }
    }

    public MdnsInterface where() {
        return where;
    }

    @Override
    public void close() {
        Announcer.closeQuietly(mdns);
    }
}
