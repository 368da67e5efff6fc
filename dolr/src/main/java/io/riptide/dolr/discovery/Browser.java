package io.riptide.dolr.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
    private static final Duration RESOLVE_WAIT = Duration.ofMillis(500);
    private static final Duration EARLY = Duration.ofSeconds(30);
    private static final Duration AGAIN_EARLY = Duration.ofSeconds(1);
    private static final Duration AGAIN_LATER = Duration.ofSeconds(15);

    private final JmDNS mdns;
    private final MdnsInterface where;
    private final Consumer<Announcement> listener;
    /** By DNS-SD instance name: what each announced, as last resolved. */
    private final Map<String, Announcement> found = new LinkedHashMap<>();
    private final CountDownLatch first = new CountDownLatch(1);
    /** Instance names seen but not yet resolved to a complete announcement: asked again until they are. */
    private final Set<String> pending = new LinkedHashSet<>();
    private final Thread resolver;
    private volatile boolean closed;

    private Browser(JmDNS mdns, MdnsInterface where, Consumer<Announcement> listener) {
        this.mdns = mdns;
        this.where = where;
        this.listener = listener;
        this.resolver = new Thread(this::resolveAgain, "riptide-mdns-resolver");
        this.resolver.setDaemon(true);
    }

    /** Starts browsing on {@code where} (and only there); {@code listener} hears of every node found from now on. */
    public static Browser start(MdnsInterface where, Consumer<Announcement> listener) {
        JmDNS mdns = null;
        try {
            mdns = JmDNS.create(where.address(), "riptide-proxy-" + HexFormat.of().toHexDigits(new SecureRandom().nextInt()));
            Browser browser = new Browser(mdns, where, listener);
            mdns.addServiceListener(Announcement.SERVICE_TYPE, browser.new Listener());
            browser.resolver.start();
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
            synchronized (found) {
                pending.add(event.getName());
            }
            event.getDNS().requestServiceInfo(event.getType(), event.getName());
        }

        @Override
        public void serviceRemoved(ServiceEvent event) {
            synchronized (found) {
                found.remove(event.getName());
                pending.remove(event.getName());
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
            pending.remove(name);
            if (a.get().equals(found.put(name, a.get()))) {
                return;
            }
        }
        first.countDown();
        listener.accept(a.get());
    }

    /**
     * Asks again, now and then, for what is still unresolved, and lists the service type afresh: an
     * answer can be lost (several mDNS sockets on one host share port 5353, and a unicast answer
     * reaches only one of them), and JmDNS does not always ask twice. Often at first, rarely later.
     */
    private void resolveAgain() {
        long started = System.nanoTime();
        while (!closed) {
            try {
                List<String> ask;
                synchronized (found) {
                    ask = new ArrayList<>(pending);
                }
                for (String name : ask) {
                    resolved(name, mdns.getServiceInfo(Announcement.SERVICE_TYPE, name, RESOLVE_WAIT.toMillis()));
                }
                for (ServiceInfo info : mdns.list(Announcement.SERVICE_TYPE, RESOLVE_WAIT.toMillis())) {
                    resolved(info.getName(), info);
                }
                boolean early = System.nanoTime() - started < EARLY.toNanos();
                Thread.sleep((early || !ask.isEmpty() ? AGAIN_EARLY : AGAIN_LATER).toMillis());
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return; // JmDNS closing under us
                }
            }
        }
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
        closed = true;
        resolver.interrupt();
        Announcer.closeQuietly(mdns);
    }
}
