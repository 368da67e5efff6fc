package io.riptide.cli;

import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.admin.AdminAction;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide purge URL [--admin HOST:PORT]}: has a running gateway take a URL down from the cache. */
@Command(name = "purge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Takes a URL down from the cache, through the gateway on this machine.",
            "The gateway signs a tombstone above the URL's current version and sends it",
            "to every replica, which drops the body; proxies then send their users to",
            "the origin and never serve an older copy again, and the gateway inserts the",
            "URL no more. The gateway must run with --admin-port."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:purged (or already purged)",
            "1:not purged: no gateway answered, nothing is cached for the URL, or try again (the message says which)",
            "2:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide purge http://example.com/page.html",
            "  riptide purge --admin 127.0.0.1:9000 https://example.com/a.png"})
final class PurgeCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "The URL to take down, as browsers ask for it.")
    private String url;

    @Option(names = "--admin", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + AdminOptions.DEFAULT_PORT,
            description = "The gateway's admin server (its --admin-port), on this machine (default: ${DEFAULT-VALUE}).")
    private String admin;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How long to wait for the gateway's answer, e.g. 5s (default: ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Override
    public Integer call() throws InterruptedException {
        NodeAddress target;
        String hostPort = admin.replaceFirst("^http://", "").replaceFirst("/.*$", "");
        try {
            target = NodeAddress.parse(hostPort);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--admin: " + e.getMessage());
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--timeout must be longer than zero");
        }
        String host = target.host().contains(":") ? "[" + target.host() + "]" : target.host();
        URI uri = URI.create("http://" + host + ":" + target.port() + "/purge?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        HttpResponse<String> response;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
            response = client.send(HttpRequest.newBuilder(uri).timeout(timeout).header(AdminAction.HEADER, "purge")
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            err.println("riptide purge: the gateway at " + target + " did not answer within " + timeout.toMillis()
                    + " ms; the purge may still complete: run the command again to see.");
            return 1;
        } catch (IOException e) {
            err.println("riptide purge: no gateway answers at " + target + " (" + (e.getMessage() == null
                    ? "connection refused" : e.getMessage()) + "). Start the gateway with --admin-port " + target.port()
                    + " on this machine, or give its admin address with --admin HOST:PORT.");
            return 1;
        }
        String text = response.body().strip();
        switch (response.statusCode()) {
            case 200:
                out.println(text);
                out.flush();
                return 0;
            case 404:
            case 405:
                if (text.startsWith("POST is not supported")) {
                    err.println("riptide purge: the admin server at " + target + " is not a gateway's (" + text + ")");
                } else {
                    err.println("riptide purge: " + text);
                }
                return 1;
            default:
                err.println("riptide purge: the gateway answered HTTP " + response.statusCode() + ": " + text);
                return 1;
        }
    }
}
