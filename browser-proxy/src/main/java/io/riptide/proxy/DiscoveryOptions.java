package io.riptide.proxy;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.client.ClientAddress;
import io.riptide.dolr.discovery.Announcement;
import io.riptide.dolr.discovery.Browser;
import io.riptide.dolr.discovery.MdnsInterface;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The proxy's discovery options and what they do: browse the local network for announced overlay
 * nodes (DNS-SD over mDNS, on one interface) for a bounded time at the start and keep listening after,
 * and choose the seeds: announced nodes, then {@code --seed}, and only when both are empty the
 * {@linkplain BuiltInSeeds built-in list}.
 *
 * <p>Trust stays with the operator: an announced provider key is used only with
 * {@code --trust-announced-provider} and no {@code --provider}, since anyone on the local network can
 * announce anything. Without it, announcements only say where nodes are; every node still proves its
 * key in the overlay handshake and every object is still verified against {@code --provider}.
 */
public final class DiscoveryOptions implements AutoCloseable {
    /** How long the start waits for the first announcement (and, to trust one, for a provider's); later ones are still taken. */
    static final Duration WAIT = Duration.ofSeconds(3);
    /** After the first announcement, how long to gather the others answering the same query. */
    private static final Duration GATHER = Duration.ofSeconds(1);

    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--discover", negatable = true,
            description = "Find overlay nodes, gateways and cache managers announced on the local network (DNS-SD over mDNS) "
                + "and read through them; they come before --seed, and the built-in seed list is used only when neither "
                + "gives a node (default: on when --mdns-interface is given, otherwise off).")
    private Boolean discover;

    @Option(names = "--mdns-interface", paramLabel = "NAME|ADDRESS",
            description = "The one network interface to look for announcements on, by name (eth0) or by one of its "
                + "addresses (default: none; --discover alone uses the machine's only LAN interface).")
    private String mdnsInterface;

    @Option(names = "--trust-announced-provider",
            description = "Without --provider, trust the provider key that cache managers and gateways announce. Anyone on "
                + "the local network can announce one, so only on a network you trust (default: off: announced keys are "
                + "ignored and --provider decides).")
    private boolean trustAnnounced;

    /** At most this many announcements are remembered as printed; more are not printed, only counted. */
    static final int MAX_TOLD = Browser.MAX_FOUND;

    private Browser browser;
    /** Where announced nodes go, once {@link #feed} is called. */
    private volatile Seeds feeding;
    /**
     * Announcements already printed: each is printed once, whether found at the start, in between, or
     * later, and forgotten when withdrawn; at most {@link #MAX_TOLD}.
     */
    private final Set<Announcement> told = new LinkedHashSet<>();
    private long untold;
    private PrintWriter out;

    /**
     * The seeds and the provider to start the proxy with.
     *
     * @param seeds    every seed, announced first: what the proxy reads through at the start
     * @param provider the provider to trust; null for none
     * @param fixed    the seeds not announced ({@code --seed}, or else the built-in list): kept for good,
     *                 while announced ones come through {@link #feed} and go when withdrawn
     */
    public record Found(List<NodeAddress> seeds, PublicKey provider, List<NodeAddress> fixed) {
        public Found(List<NodeAddress> seeds, PublicKey provider) {
            this(seeds, provider, seeds);
        }
    }

    /** Whether the proxy looks for announced nodes: asked for, or implied by {@code --mdns-interface}. */
    public boolean enabled() {
        return discover != null ? discover : mdnsInterface != null;
    }

    /** Whether nodes announced from now on are still taken: the proxy should set up its overlay even with no seed yet. */
    public boolean listening() {
        return browser != null;
    }

    /**
     * Looks for announced nodes (when enabled) for up to {@link #WAIT}, then chooses the seeds:
     * announced and {@code configured}, or else the built-in list; and the provider: {@code configured}
     * or, if allowed, the one announced. Prints what it found to {@code out}.
     */
    public Found find(List<NodeAddress> configured, PublicKey provider, PrintWriter out) throws InterruptedException {
        this.out = out;
        if (trustAnnounced && !enabled()) {
            throw new ParameterException(spec.commandLine(), "--trust-announced-provider needs --discover or --mdns-interface");
        }
        List<Announcement> announced = List.of();
        if (enabled()) {
            MdnsInterface where;
            try {
                where = mdnsInterface != null ? MdnsInterface.named(mdnsInterface) : MdnsInterface.onlyLan();
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--discover: " + e.getMessage());
            }
            long deadline = System.nanoTime() + WAIT.toNanos();
            browser = Browser.start(where, this::announced, this::withdrawn);
            if (browser.awaitFirst(WAIT)) {
                Thread.sleep(GATHER.toMillis());
                // A provider to trust may come from a cache manager or gateway answering later than a plain node.
                while (provider == null && trustAnnounced && browser.found().stream().allMatch(a -> a.provider() == null)
                        && System.nanoTime() - deadline < 0) {
                    Thread.sleep(50);
                }
                announced = browser.found();
                announced.forEach(this::tell);
                say("found on the local network (" + where + "): " + String.join(", ", announced.stream().map(Object::toString).toList()));
            } else {
                say("nothing announced on the local network (" + where + ") within " + WAIT.toSeconds() + "s; still listening");
            }
        }
        Set<NodeAddress> seeds = new LinkedHashSet<>();
        announced.forEach(a -> seeds.add(a.overlay()));
        seeds.addAll(configured);
        List<NodeAddress> fixed = new ArrayList<>(configured);
        if (seeds.isEmpty()) {
            fixed.addAll(BuiltInSeeds.load());
            seeds.addAll(fixed);
        }
        PublicKey trusted = provider != null ? provider : trustAnnounced ? announcedProvider(announced) : null;
        if (provider == null && !trustAnnounced && announced.stream().anyMatch(a -> a.provider() != null)) {
            say("announced providers are not trusted without --provider KEY or --trust-announced-provider: "
                    + "every request goes to the origin");
        }
        return new Found(new ArrayList<>(seeds), trusted, fixed);
    }

    private PublicKey announcedProvider(List<Announcement> announced) {
        List<PublicKey> keys = announced.stream().map(Announcement::provider).filter(Objects::nonNull).distinct().toList();
        if (keys.size() == 1) {
            say("trusting the announced provider " + keys.get(0) + " (--trust-announced-provider)");
            return keys.get(0);
        }
        say(keys.isEmpty() ? "no provider announced yet: every request goes to the origin; give --provider to choose one"
                : "several providers announced (" + keys + "): trusting none; choose one with --provider");
        return null;
    }

    /**
     * The address the proxy's overlay client listens on and advertises: while listening, the mDNS
     * interface's (nodes found there later answer there); otherwise the address {@code seeds} see.
     */
    public NodeAddress clientAddress(List<NodeAddress> seeds) {
        return ClientAddress.choose(browser == null ? null : browser.where().address(), seeds);
    }

    /**
     * From now on, nodes announced are added to {@code proxy}'s discovered seeds (those found so far
     * too), and dropped from them when withdrawn or expired.
     */
    public void feed(RiptideProxy proxy) {
        if (browser != null) {
            feed(new Seeds(proxy::addDiscoveredSeed, proxy::removeDiscoveredSeed), browser);
        }
    }

    /** Where announced seeds go, and withdrawn ones leave; tests give their own. */
    record Seeds(Consumer<NodeAddress> found, Consumer<NodeAddress> lost) {
    }

    void feed(Seeds seeds, Browser from) {
        feeding = seeds; // first: whatever is found after the list below is read comes through announced()
        if (from != null) {
            from.found().forEach(this::announced);
        }
    }

    void announced(Announcement a) {
        Seeds seeds = feeding;
        if (seeds != null) {
            seeds.found().accept(a.overlay());
            tell(a);
        }
    }

    void withdrawn(Announcement a) {
        Seeds seeds = feeding;
        if (seeds != null) {
            seeds.lost().accept(a.overlay());
        }
        boolean wasTold;
        synchronized (told) {
            wasTold = told.remove(a);
        }
        if (wasTold) {
            say("withdrawn from the local network: " + a);
        }
    }

    private void tell(Announcement a) {
        boolean now;
        boolean full = false;
        synchronized (told) {
            now = told.size() < MAX_TOLD && told.add(a);
            if (!now && !told.contains(a)) {
                full = untold++ == 0;
            }
        }
        if (now) {
            say("found on the local network: " + a);
        } else if (full) {
            say("more than " + MAX_TOLD + " nodes announced on the local network: the rest are not printed");
        }
    }

    /** How many announcements are remembered as printed; at most {@link #MAX_TOLD}. */
    int told() {
        synchronized (told) {
            return told.size();
        }
    }

    /** Announcements not printed because {@link #MAX_TOLD} were already. */
    long untold() {
        synchronized (told) {
            return untold;
        }
    }

    private void say(String line) {
        if (out != null) {
            out.println(line);
            out.flush();
        }
    }

    /** Stops listening. Idempotent. */
    @Override
    public void close() {
        if (browser != null) {
            browser.close();
        }
    }
}
