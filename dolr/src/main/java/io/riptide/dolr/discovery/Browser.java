package io.riptide.dolr.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.jmdns.JmDNS;
import javax.jmdns.ServiceEvent;
import javax.jmdns.ServiceInfo;
import javax.jmdns.ServiceListener;
import javax.jmdns.impl.DNSEntry;
import javax.jmdns.impl.DNSRecord;
import javax.jmdns.impl.JmDNSImpl;
import javax.jmdns.impl.constants.DNSRecordClass;
import javax.jmdns.impl.constants.DNSRecordType;

/**
 * Browses one interface for {@value Announcement#SERVICE_TYPE} until closed, and tells a listener of
 * each node announced (once per node and address; again if it moves) and another of each one
 * withdrawn or expired. Records that are not a complete Riptide announcement are ignored.
 * Thread-safe; the listeners run on JmDNS's and the resolver's threads.
 *
 * <p>Anyone on the link can announce anything, so what a browser keeps is bounded: at most
 * {@value #MAX_FOUND} nodes (more are refused, and counted, until some are withdrawn), at most
 * {@value #MAX_PER_SOURCE} of them from any one address, and at most {@value #MAX_PENDING} names
 * waiting to be resolved (the oldest is dropped for a new one), and JmDNS's own record cache is kept
 * to {@value RecordCacheBound#MAX_RECORDS} records ({@link RecordCacheBound}). An announced host is taken only if it
 * is the address the record came from (see {@link Announcement#read}), so a stranger can
 * point a proxy only at itself, never at a third party.
 */
public final class Browser implements AutoCloseable {
    /** At most this many announced nodes are kept. */
    public static final int MAX_FOUND = 64;
    /** At most this many names are kept waiting to be resolved. */
    public static final int MAX_PENDING = 64;
    /** At most this many announced nodes from one address (one machine may run a node, a gateway and a cache manager). */
    public static final int MAX_PER_SOURCE = 8;
    private static final Duration RESOLVE_WAIT = Duration.ofMillis(500);
    /** Names are asked for this many at a time, so one that never resolves delays the others by no more than one wait. */
    private static final int RESOLVERS = 8;
    /** Bound on one round of asking again; what is not asked in time goes first in the next. */
    private static final Duration ROUND_WAIT = Duration.ofSeconds(2);
    private static final Duration EARLY = Duration.ofSeconds(30);
    private static final Duration AGAIN_EARLY = Duration.ofSeconds(1);
    private static final Duration AGAIN_LATER = Duration.ofSeconds(15);

    private final JmDNS mdns;
    private final MdnsInterface where;
    private final Consumer<Announcement> listener;
    private final Consumer<Announcement> lost;
    /** The addresses a resolved record came from, IPv4 first. */
    private final Function<ServiceInfo, List<String>> sources;
    /** By DNS-SD instance name: what each announced, as last resolved; at most {@link #MAX_FOUND}. */
    private final Map<String, Announcement> found = new LinkedHashMap<>();
    private final CountDownLatch first = new CountDownLatch(1);
    /**
     * Instance names seen but not yet resolved to a complete announcement: asked again until they are,
     * least recently asked first; at most {@link #MAX_PENDING}.
     */
    private final Set<String> pending = new LinkedHashSet<>();
    private final Semaphore wake = new Semaphore(0);
    private long refused;
    private long pendingDropped;
    private long hostsIgnored;
    private final Thread resolver;
    /** Bounds JmDNS's own record cache; null for a browser without JmDNS (tests). */
    private volatile RecordCacheBound cacheBound;
    private final ExecutorService resolvers;
    private volatile boolean closed;

    /** A browser over {@code mdns}; with {@code mdns} null, one fed only through {@link #listener()} (tests). */
    Browser(JmDNS mdns, MdnsInterface where, Consumer<Announcement> listener, Consumer<Announcement> lost,
            Function<ServiceInfo, List<String>> sources) {
        this.mdns = mdns;
        this.where = where;
        this.listener = listener;
        this.lost = lost;
        this.sources = sources;
        this.resolver = new Thread(this::resolveAgain, "riptide-mdns-resolver");
        this.resolver.setDaemon(true);
        this.resolvers = mdns == null ? null : Executors.newFixedThreadPool(RESOLVERS, r -> {
            Thread t = new Thread(r, "riptide-mdns-resolve");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts browsing on {@code where} (and only there); {@code listener} hears of every node found from now on. */
    public static Browser start(MdnsInterface where, Consumer<Announcement> listener) {
        return start(where, listener, a -> { });
    }

    /** As above; {@code lost} hears of every node withdrawn or expired (or moved, for its old address). */
    public static Browser start(MdnsInterface where, Consumer<Announcement> listener, Consumer<Announcement> lost) {
        JmDNS mdns = null;
        try {
            mdns = JmDNS.create(where.address(), "riptide-proxy-" + HexFormat.of().toHexDigits(new SecureRandom().nextInt()));
            JmDNS m = mdns;
            Browser browser = new Browser(mdns, where, listener, lost, info -> recordSources(m, info));
            browser.cacheBound = RecordCacheBound.start(mdns);
            mdns.addServiceListener(Announcement.SERVICE_TYPE, browser.listener());
            browser.resolver.start();
            return browser;
        } catch (IOException e) {
            Announcer.closeQuietly(mdns);
            throw new UncheckedIOException("cannot browse on " + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * Where the TXT record of {@code info} came from: the source address of the packets that brought
     * it (JmDNS keeps it with each cached record); the service's A/AAAA addresses only if JmDNS has no
     * such record cached. IPv4 first.
     */
    static List<String> recordSources(JmDNS mdns, ServiceInfo info) {
        List<InetAddress> from = new ArrayList<>();
        if (mdns instanceof JmDNSImpl impl) {
            for (DNSEntry e : impl.getCache().getDNSEntryList(info.getQualifiedName(), DNSRecordType.TYPE_TXT, DNSRecordClass.CLASS_IN)) {
                if (e instanceof DNSRecord r && r.getRecordSource() != null && !from.contains(r.getRecordSource())) {
                    from.add(r.getRecordSource());
                }
            }
        }
        if (from.isEmpty()) {
            from.addAll(List.of(info.getInetAddresses()));
        }
        return from.stream().sorted(Comparator.comparing(a -> a instanceof Inet4Address ? 0 : 1)).map(InetAddress::getHostAddress)
                .toList();
    }

    /** What JmDNS tells of the service type (tests call it with events of their own). */
    ServiceListener listener() {
        return new Listener();
    }

    private final class Listener implements ServiceListener {
        @Override
        public void serviceAdded(ServiceEvent event) {
            // The resolver asks for the SRV, TXT and address records; this runs on JmDNS's one event thread, so it must not wait.
            synchronized (found) {
                if (found.containsKey(event.getName())) {
                    return;
                }
                pending.remove(event.getName());
                pending.add(event.getName());
                while (pending.size() > MAX_PENDING) {
                    Iterator<String> oldest = pending.iterator();
                    oldest.next();
                    oldest.remove();
                    pendingDropped++;
                }
            }
            wake.release();
        }

        @Override
        public void serviceRemoved(ServiceEvent event) {
            forget(event.getName());
        }

        @Override
        public void serviceResolved(ServiceEvent event) {
            resolved(event.getName(), event.getInfo());
        }
    }

    private void forget(String name) {
        Announcement gone;
        synchronized (found) {
            pending.remove(name);
            gone = found.remove(name);
            if (gone == null || found.values().stream().anyMatch(a -> a.overlay().equals(gone.overlay()))) {
                return; // another name still announces that address
            }
        }
        lost.accept(gone);
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
        List<String> from = sources.apply(info);
        Optional<Announcement> parsed = Announcement.read(txt, from);
        if (parsed.isEmpty()) {
            return; // not (yet) a complete announcement: JmDNS often resolves the SRV before the TXT
        }
        Announcement a = parsed.get();
        Announcement moved;
        synchronized (found) {
            Announcement before = found.get(name);
            if (a.equals(before)) {
                pending.remove(name);
                return;
            }
            if (txt.containsKey("host") && !txt.get("host").equals(a.overlay().host())) {
                hostsIgnored++; // counted once per announcement, not at every listing
            }
            String host = a.overlay().host();
            long sameSource = found.entrySet().stream()
                    .filter(e -> !e.getKey().equals(name) && e.getValue().overlay().host().equals(host)).count();
            if (before == null && found.size() >= MAX_FOUND || sameSource >= MAX_PER_SOURCE) {
                pending.remove(name); // refused: asking again would only be refused again
                refused++;
                return;
            }
            pending.remove(name);
            found.put(name, a);
            moved = before != null && !before.overlay().equals(a.overlay())
                    && found.values().stream().noneMatch(o -> o.overlay().equals(before.overlay())) ? before : null;
        }
        if (moved != null) {
            lost.accept(moved);
        }
        first.countDown();
        listener.accept(a);
    }

    /**
     * Asks again, now and then, for what is still unresolved, and lists the service type afresh: an
     * answer can be lost (several mDNS sockets on one host share port 5353, and a unicast answer
     * reaches only one of them), and JmDNS does not always ask twice. Often at first, rarely later;
     * at once when a new name appears. Names are asked {@value #RESOLVERS} at a time, each round
     * bounded by {@link #ROUND_WAIT}, so names that never resolve cannot hold up the others for long.
     */
    private void resolveAgain() {
        long started = System.nanoTime();
        while (!closed) {
            try {
                List<String> ask;
                synchronized (found) {
                    ask = new ArrayList<>(pending);
                }
                List<Callable<Void>> asks = new ArrayList<>();
                for (String name : ask) {
                    asks.add(() -> {
                        synchronized (found) {
                            if (pending.remove(name)) {
                                pending.add(name); // least recently asked first next round
                            }
                        }
                        resolved(name, mdns.getServiceInfo(Announcement.SERVICE_TYPE, name, false, RESOLVE_WAIT.toMillis()));
                        return null;
                    });
                }
                if (!asks.isEmpty()) {
                    resolvers.invokeAll(asks, ROUND_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                }
                for (ServiceInfo info : mdns.list(Announcement.SERVICE_TYPE, RESOLVE_WAIT.toMillis())) {
                    resolved(info.getName(), info);
                }
                boolean early = System.nanoTime() - started < EARLY.toNanos();
                boolean unresolved;
                synchronized (found) {
                    unresolved = !pending.isEmpty();
                }
                if (wake.tryAcquire((early || unresolved ? AGAIN_EARLY : AGAIN_LATER).toMillis(), TimeUnit.MILLISECONDS)) {
                    wake.drainPermits();
                }
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

    /** Every node announced and not withdrawn, in the order found; at most {@link #MAX_FOUND}. */
    public List<Announcement> found() {
        synchronized (found) {
            return new ArrayList<>(found.values());
        }
    }

    /** How many names wait to be resolved; at most {@link #MAX_PENDING}. */
    public int pending() {
        synchronized (found) {
            return pending.size();
        }
    }

    /** Announcements refused so far: beyond {@link #MAX_FOUND} nodes, or {@link #MAX_PER_SOURCE} from one address. */
    public long refused() {
        synchronized (found) {
            return refused;
        }
    }

    /** Names dropped unresolved so far, to make room for newer ones. */
    public long pendingDropped() {
        synchronized (found) {
            return pendingDropped;
        }
    }

    /** Announced hosts ignored so far because they were not the address the record came from. */
    public long hostsIgnored() {
        synchronized (found) {
            return hostsIgnored;
        }
    }

    /** Records dropped from JmDNS's cache so far to keep it within {@link RecordCacheBound#MAX_RECORDS}. */
    public long cacheRecordsTrimmed() {
        RecordCacheBound bound = cacheBound;
        return bound == null ? 0 : bound.trimmed();
    }

    public MdnsInterface where() {
        return where;
    }

    @Override
    public void close() {
        closed = true;
        if (cacheBound != null) {
            cacheBound.close();
        }
        resolver.interrupt();
        if (resolvers != null) {
            resolvers.shutdownNow();
        }
        Announcer.closeQuietly(mdns);
    }
}
