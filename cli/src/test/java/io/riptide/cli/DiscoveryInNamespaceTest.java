package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zero-configuration discovery end to end, in real processes: inside a network namespace of its own
 * (the only place this test suite sends multicast), a node, a gateway and a cache manager announce
 * themselves over mDNS, and {@code riptide proxy} started with no {@code --seed} finds the overlay
 * through them and serves a page from it: a miss first, then an overlay hit. Another proxy, started
 * before any of them and so finding nothing within its start's wait, finds them later and serves a hit
 * too, its overlay client on the mDNS interface's address from the start.
 *
 * <p>Everything overlay runs on {@value #LAN}, a second address on the namespace's {@code lo} standing
 * in for a LAN address: it is what multicast on {@code lo} is sent from (an announced host is taken only
 * from the address the announcement came from), and unlike 127.0.0.1 it is not the address a client
 * with no seed falls back to.
 *
 * <p>Skipped, saying why, where no namespace can be made (not root, or unshare, nsenter or ip
 * missing); with {@code CI=true} that is a failure instead, since CI runs as root.
 */
class DiscoveryInNamespaceTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The address everything overlay uses: on {@code lo}, but not 127.0.0.1. */
    private static final String LAN = "10.77.0.1";
    private static final String ON_LAN = "lo (" + LAN + ")";
    private static final Pattern CLIENT = Pattern.compile("overlay client listening on (\\S+):\\d+ \\(on the mDNS interface.*");
    private static final Pattern LISTENING = Pattern.compile("node [0-9a-f]{40} listening on (10\\.77\\.0\\.1:\\d+)");
    private static final Pattern PROVIDER = Pattern.compile("provider key (ed25519:\\S+) \\(proxies trust this\\)");
    private static final Pattern ORIGIN = Pattern.compile("origin (http://127\\.0\\.0\\.1:\\d+/)");
    private static final Pattern PROXY = Pattern.compile("riptide browser proxy on http://127\\.0\\.0\\.1:(\\d+)/ .*");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void aProxyWithNoSeedsFindsTheAnnouncedOverlayAndServesAHit() throws Exception {
        NamespaceGate.requireNamespaces(NetworkNamespace.unavailable(), "the mDNS discovery test");
        List<NodeProcess> processes = new ArrayList<>();
        try (NetworkNamespace ns = NetworkNamespace.start(dir, List.of(LAN))) {
            try {
                run(ns, processes);
            } finally {
                NamespaceGate.closeNewestFirst(processes);
            }
        }
    }

    private void run(NetworkNamespace ns, List<NodeProcess> processes) throws Exception {
        // The provider's key, made here so that a proxy can trust it before its gateway runs.
        SigningKey providerKey = SigningKey.generate(new SecureRandom());
        providerKey.save(dir.resolve("provider.key"));
        String provider = providerKey.publicKey().toString();

        // A proxy started before any node: nothing is announced within its start's wait, so its client
        // must already be where nodes found later will answer it, the mDNS interface's address.
        NodeProcess early = start(ns, processes, "early-proxy", "proxy", "--port", "0", "--no-keep-own-fetches", "--mdns-interface", LAN,
                "--provider", provider);
        early.await(l -> l.startsWith("nothing announced on the local network (" + ON_LAN + ") within "),
                "that it found nothing at the start", WAIT);
        assertEquals(LAN, group(early, CLIENT, "where its overlay client listens"),
                "the client advertises the mDNS interface's address, not loopback");
        String earlyPort = group(early, PROXY, "its address");

        NodeProcess node = start(ns, processes, "node", "node", "--host", LAN, "--port", "0", "--mdns-interface", LAN,
                "--status-every", "2s");
        String join = group(node, LISTENING, "its address");
        node.await(l -> l.startsWith("announcing on the local network (" + ON_LAN + ") as _riptide._tcp.local.: node "),
                "that it announces itself", WAIT);

        NodeProcess gateway = start(ns, processes, "gateway", "gateway", "--key", dir.resolve("provider.key").toString(),
                "--host", LAN, "--port", "0", "--join", join, "--mdns-interface", LAN, "--status-every", "2s",
                "--allow-private-origins"); // the origin is on loopback
        assertEquals(provider, group(gateway, PROVIDER, "the provider key"));
        gateway.await(("joined the overlay through " + join)::equals, "that it joined", WAIT);

        NodeProcess manager = start(ns, processes, "cache-manager", "cache-manager", "--provider", provider, "--host", LAN,
                "--port", "0", "--join", join, "--mdns-interface", LAN, "--status-every", "2s");
        manager.await(l -> l.startsWith("announcing on the local network (" + ON_LAN + ") as _riptide._tcp.local.: cache-manager ")
                && l.endsWith(" for provider " + provider), "that it announces itself with the provider it works for", WAIT);

        NodeProcess origin = startMain(ns, processes, "origin", NamespaceClient.class.getName(), "origin");
        String site = group(origin, ORIGIN, "its URL");

        // No --seed: the proxy has only the local network to go by.
        NodeProcess proxy = start(ns, processes, "proxy", "proxy", "--port", "0", "--no-keep-own-fetches", "--mdns-interface", LAN, "--provider", provider);
        proxy.await(l -> l.startsWith("found on the local network (" + ON_LAN + "): "), "what it found at the start", WAIT);
        // Whatever was not resolved within the start's wait is taken as it comes: the proxy keeps listening.
        for (String role : List.of("node ", "gateway ", "cache-manager ")) {
            proxy.await(l -> l.startsWith("found on the local network") && l.contains(role), "that it found the " + role, WAIT);
        }
        String proxyPort = group(proxy, PROXY, "its address");
        proxy.await(l -> l.startsWith("reading the cache through the overlay via ["), "that it reads through the overlay", WAIT);

        NodeProcess browser = startMain(ns, processes, "browser", NamespaceClient.class.getName(), "fetch", proxyPort,
                site + "style.css", "90");
        int exit = browser.awaitExit(Duration.ofSeconds(150));
        List<String> responses = browser.lines();
        String report = "browser:\n" + String.join("\n", responses) + "\nstderr:\n" + browser.stderr() + "\nproxy:\n"
                + String.join("\n", proxy.lines()) + "\ncache manager:\n" + String.join("\n", manager.lines());
        System.out.println(report); // kept in the surefire report, for whoever wonders how it went
        assertEquals(0, exit, "an overlay hit within the time:\n" + report);
        assertTrue(responses.get(0).matches("response 1: 200, \\d+ bytes, Cache-Status: riptide; fwd=miss.*"), report);
        String hit = responses.get(responses.size() - 1);
        assertTrue(hit.matches(".*, Cache-Status: riptide; hit(; detail=memory)?"), report);
        assertEquals(bytes(responses.get(0)), bytes(hit), "the overlay serves what the origin did:\n" + report);

        // The early proxy found the overlay after its start and reads through it: answers reach its client.
        early.await(l -> l.startsWith("found on the local network: node "), "that it found the node later", WAIT);
        NodeProcess lateBrowser = startMain(ns, processes, "late-browser", NamespaceClient.class.getName(), "fetch", earlyPort,
                site + "style.css", "60");
        int lateExit = lateBrowser.awaitExit(Duration.ofSeconds(90));
        String lateReport = "late browser:\n" + String.join("\n", lateBrowser.lines()) + "\nstderr:\n" + lateBrowser.stderr()
                + "\nearly proxy:\n" + String.join("\n", early.lines());
        System.out.println(lateReport);
        assertEquals(0, lateExit, "an overlay hit through the proxy that found the overlay late:\n" + lateReport);

        // Where the operator allows it, a proxy with neither --seed nor --provider takes the provider announced.
        NodeProcess trusting = start(ns, processes, "trusting-proxy", "proxy", "--port", "0", "--no-keep-own-fetches", "--mdns-interface", LAN,
                "--trust-announced-provider");
        trusting.await(("trusting the announced provider " + provider + " (--trust-announced-provider)")::equals,
                "that it trusts the announced provider", WAIT);
        trusting.await(l -> l.startsWith("reading the cache through the overlay via ["), "that it reads through the overlay", WAIT);

        for (NodeProcess p : List.of(trusting, proxy, early, manager, gateway, node)) {
            assertTrue(p.stop(), "stopped on SIGTERM");
            assertFalse(p.stderr().contains("LEAK"), "no Netty leak reported: " + p.stderr());
        }
        assertTrue(proxy.lines().contains("proxy stopped"), String.join("\n", proxy.lines()));
    }

    private NodeProcess start(NetworkNamespace ns, List<NodeProcess> processes, String name, String... riptideArgs)
            throws Exception {
        NodeProcess p = NodeProcess.start(name, dir, ns.inside(List.of()), Riptide.class.getName(), List.of(riptideArgs));
        processes.add(p);
        return p;
    }

    private NodeProcess startMain(NetworkNamespace ns, List<NodeProcess> processes, String name, String mainClass, String... args)
            throws Exception {
        NodeProcess p = NodeProcess.start(name, dir, ns.inside(List.of()), mainClass, List.of(args));
        processes.add(p);
        return p;
    }

    private static String group(NodeProcess p, Pattern pattern, String what) {
        Matcher m = pattern.matcher(p.await(l -> pattern.matcher(l).matches(), what, WAIT));
        assertTrue(m.matches());
        return m.group(1);
    }

    private static String bytes(String response) {
        Matcher m = Pattern.compile("response \\d+: 200, (\\d+) bytes, .*").matcher(response);
        assertTrue(m.matches(), response);
        return m.group(1);
    }
}
