package io.riptide.cli.demo;

import com.sun.net.httpserver.HttpServer;
import io.riptide.cli.demo.WanBox.Stub;
import io.riptide.cli.demo.WanBox.UplinkBytes;
import io.riptide.core.crypto.SigningKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * {@code riptide demo --wan}: the {@link WanBox} with the shipped processes in it, as {@code WanInABoxTest}
 * runs them (an ISP stub with the gateway and the sample site, two campuses with two storage nodes, a cache
 * manager and a proxy each, every one a {@code riptide} process of its own), a short tour, and a status page
 * on 127.0.0.1 with each uplink's bytes as the kernel counts them, live.
 */
public final class WanDemo implements AutoCloseable {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String RIPTIDE = "io.riptide.cli.Riptide";
    private static final Pattern LISTENING = Pattern.compile("\\S+ [0-9a-f]{40} listening on (\\S+:\\d+)");
    private static final Pattern PROVIDER = Pattern.compile("provider key (ed25519:\\S+) \\(proxies trust this\\)");
    private static final Pattern ORIGIN = Pattern.compile("origin (http://\\S+/)");
    private static final Pattern PROXY = Pattern.compile("riptide browser proxy on http://127\\.0\\.0\\.1:(\\d+)/ .*");
    private static final Pattern JOINED = Pattern.compile("joined the overlay through .*");
    private static final Pattern READING = Pattern.compile("(reading the cache through the overlay|no overlay node answered yet).*");

    private final Path dir;
    private final WanBox box;
    private final List<ChildProcess> processes = new ArrayList<>();
    private final Map<Stub, Integer> proxyPorts = new LinkedHashMap<>();
    private final List<String> roles = new ArrayList<>();
    private HttpServer page;
    private String site;

    private WanDemo(Path dir, WanBox box) {
        this.dir = dir;
        this.box = box;
    }

    /** Builds the box and starts every process in it; whatever was started is stopped again if a step fails. */
    public static WanDemo start(Path dir, PrintWriter out) throws Exception {
        WanBox box = WanBox.start(dir, List.of("isp", "campus1", "campus2"), null);
        WanDemo demo = new WanDemo(dir, box);
        try {
            demo.startProcesses(out);
            demo.startPage();
            return demo;
        } catch (Exception | Error e) {
            demo.close();
            throw e;
        }
    }

    private void startProcesses(PrintWriter out) throws Exception {
        Stub isp = box.stub("isp");
        SigningKey providerKey = SigningKey.generate(new SecureRandom());
        Path keyFile = dir.resolve("provider.key");
        providerKey.save(keyFile);
        String provider = providerKey.publicKey().toString();
        ChildProcess origin = child(isp, "site", SampleSite.class.getName(), List.of(isp.address()));
        site = origin.await(ORIGIN, "its URL", WAIT).group(1);
        ChildProcess gateway = child(isp, "gateway", RIPTIDE, List.of("gateway", "--key", keyFile.toString(), "--host", isp.address(),
                "--port", "0", "--allow-private-origins")); // the sample site is on the ISP's private address
        gateway.await(PROVIDER, "the provider key", WAIT);
        String join = gateway.await(LISTENING, "its address", WAIT).group(1);
        role(isp, "gateway " + join + " and the sample site " + site);
        say(out, "  isp      " + isp.address() + "  gateway " + join + ", sample site " + site);

        Map<Stub, List<ChildProcess>> members = new LinkedHashMap<>();
        for (Stub campus : List.of(box.stub("campus1"), box.stub("campus2"))) {
            List<ChildProcess> started = new ArrayList<>();
            for (String n : List.of("a", "b")) {
                started.add(child(campus, campus.name() + "-node-" + n, RIPTIDE, List.of("node", "--host", campus.address(), "--port", "0",
                        "--join", join)));
            }
            started.add(child(campus, campus.name() + "-cache-manager", RIPTIDE, List.of("cache-manager", "--provider", provider,
                    "--host", campus.address(), "--port", "0", "--join", join)));
            members.put(campus, started);
        }
        for (Map.Entry<Stub, List<ChildProcess>> e : members.entrySet()) {
            List<String> args = new ArrayList<>(List.of("proxy", "--port", "0", "--provider", provider));
            List<String> addresses = new ArrayList<>();
            for (ChildProcess member : e.getValue()) {
                member.await(JOINED, "that it joined", WAIT);
                String address = member.await(LISTENING, "its address", WAIT).group(1);
                addresses.add(address);
                args.addAll(List.of("--seed", address));
            }
            ChildProcess proxy = child(e.getKey(), e.getKey().name() + "-proxy", RIPTIDE, args);
            int port = Integer.parseInt(proxy.await(PROXY, "its address", WAIT).group(1));
            proxy.await(READING, "that it reads through the overlay", WAIT);
            proxyPorts.put(e.getKey(), port);
            role(e.getKey(), "nodes " + String.join(", ", addresses.subList(0, 2)) + ", cache manager " + addresses.get(2)
                    + ", proxy 127.0.0.1:" + port);
            say(out, "  " + e.getKey().name() + "  " + e.getKey().address() + "  nodes " + String.join(", ", addresses.subList(0, 2))
                    + ", cache manager " + addresses.get(2) + ", proxy 127.0.0.1:" + port + " (inside the campus)");
        }
    }

    private void role(Stub stub, String what) {
        roles.add(stub.name() + " (" + stub.address() + "): " + what);
    }

    /** Fetches {@code path} of the sample site through {@code campus}'s proxy, from inside the campus; the line it printed. */
    public String fetch(String campus, String path) throws Exception {
        Stub stub = box.stub(campus);
        ChildProcess browser = child(stub, campus + "-browser-" + System.nanoTime(), ProxyFetch.class.getName(),
                List.of(Integer.toString(proxyPorts.get(stub)), site + path.substring(1)));
        int exit = browser.awaitExit(Duration.ofSeconds(40));
        List<String> lines = browser.lines();
        return exit == 0 && !lines.isEmpty() ? lines.get(0) : "failed (exit " + exit + "; see " + dir.resolve(browser.name() + ".stderr") + ")";
    }

    /** The command a person runs (as root) to fetch {@code path} through {@code campus}'s proxy from inside it. */
    public String curlCommand(String campus, String path) {
        Stub stub = box.stub(campus);
        return String.join(" ", stub.inside(List.of("curl", "-s", "-o", "/dev/null", "-D", "-", "-x",
                "http://127.0.0.1:" + proxyPorts.get(stub), site + path.substring(1))));
    }

    /** The demo's own page: each uplink's bytes, read from the kernel when the page is asked for. */
    private void startPage() throws IOException {
        page = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        page.createContext("/", exchange -> {
            byte[] body;
            int status = 200;
            try {
                body = (exchange.getRequestURI().getPath().equals("/uplinks.json") ? uplinksJson() : html())
                        .getBytes(StandardCharsets.UTF_8);
            } catch (IOException e) {
                status = 500;
                body = ("could not read the uplinks' counters: " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
            }
            exchange.getResponseHeaders().add("Content-Type", exchange.getRequestURI().getPath().endsWith(".json")
                    ? "application/json" : "text/html; charset=utf-8");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        page.start();
    }

    /** The status page's address. */
    public String pageUrl() {
        return "http://127.0.0.1:" + page.getAddress().getPort() + "/";
    }

    /** One line per uplink: bytes out of and into the stub so far. */
    public String uplinkLine() throws IOException {
        StringBuilder line = new StringBuilder("uplinks (bytes out/in):");
        for (Stub s : box.stubs()) {
            UplinkBytes b = box.uplink(s);
            line.append(' ').append(s.name()).append(' ').append(b.tx()).append('/').append(b.rx());
        }
        return line.toString();
    }

    private String html() throws IOException {
        StringBuilder h = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"2\">"
                + "<title>Riptide WAN demo</title><style>body{font-family:system-ui,sans-serif;margin:1.5em}"
                + "td,th{padding:.2em .8em;text-align:right}th{background:#eee}td.l{text-align:left}</style></head><body>"
                + "<h1>Riptide on a WAN in a box</h1><p>Three stub networks (network namespaces) joined through a router by "
                + "uplinks limited to " + WanBox.UPLINK_RATE + " each way with tbf. Counted by the kernel on each stub's side of "
                + "its uplink; this page refreshes every 2 s (also <a href=\"/uplinks.json\">/uplinks.json</a>).</p>"
                + "<table><tr><th>stub</th><th>address</th><th>uplink</th><th>bytes out</th><th>bytes in</th></tr>");
        for (Stub s : box.stubs()) {
            UplinkBytes b = box.uplink(s);
            h.append("<tr><td class=\"l\">").append(s.name()).append("</td><td class=\"l\">").append(s.address())
                    .append("</td><td class=\"l\">").append(s.uplink()).append("</td><td>").append(String.format("%,d", b.tx()))
                    .append("</td><td>").append(String.format("%,d", b.rx())).append("</td></tr>");
        }
        h.append("</table><h2>What runs where</h2><ul>");
        for (String r : roles) {
            h.append("<li>").append(escape(r)).append("</li>");
        }
        h.append("</ul><h2>Try it (as root)</h2><pre>").append(escape(curlCommand("campus1", "/style.css"))).append('\n')
                .append(escape(curlCommand("campus2", "/style.css"))).append("</pre></body></html>\n");
        return h.toString();
    }

    private String uplinksJson() throws IOException {
        StringBuilder j = new StringBuilder("{");
        String sep = "";
        for (Stub s : box.stubs()) {
            UplinkBytes b = box.uplink(s);
            j.append(sep).append(String.format("\"%s\": {\"address\": \"%s\", \"tx_bytes\": %d, \"rx_bytes\": %d}", s.name(), s.address(),
                    b.tx(), b.rx()));
            sep = ", ";
        }
        return j.append("}\n").toString();
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private ChildProcess child(Stub stub, String name, String mainClass, List<String> args) throws IOException {
        ChildProcess p = ChildProcess.start(name, dir, stub.inside(List.of()), mainClass, args);
        processes.add(p);
        return p;
    }

    /** Where every process's output is. */
    public Path logs() {
        return dir;
    }

    private static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }

    /** Stops the page, then every process (proxies first, the gateway last), then the namespaces. */
    @Override
    public void close() throws InterruptedException {
        if (page != null) {
            page.stop(0);
        }
        List<ChildProcess> reversed = new ArrayList<>(processes);
        Collections.reverse(reversed);
        for (ChildProcess p : reversed) {
            p.close();
        }
        box.close();
    }
}
