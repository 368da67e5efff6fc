package io.riptide.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
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
        AdminPost gateway = AdminPost.to("purge", admin, timeout, spec.commandLine());
        return gateway.post("/purge?url=" + URLEncoder.encode(url, StandardCharsets.UTF_8), "the purge may still complete",
                spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
