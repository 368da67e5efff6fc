package io.riptide.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.core.runtime.NodeAddress;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide status [--admin HOST:PORT] [--json]}: asks a running node or agent's admin server how it is. */
@Command(name = "status", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Asks a running node, gateway, cache manager or browser proxy how it is",
            "and prints a summary. A node must run with --admin-port; a browser proxy",
            "answers on its own port."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:it answered", "1:it did not answer, or answered with an error (the message says what to check)",
            "2:usage or config error"},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide status                          # the node on this machine's default admin port",
            "  riptide status --admin 127.0.0.1:3128    # a browser proxy, on its own port",
            "  riptide status --admin 10.0.0.5:8711 --json"})
final class StatusCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--admin", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + AdminOptions.DEFAULT_PORT,
            description = "The admin server to ask, or its status page's URL (default: ${DEFAULT-VALUE}).")
    private String admin;

    @Option(names = "--json", description = "Print the full status as JSON, as the admin server sends it (default: a summary).")
    private boolean json;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "How long to wait for an answer, e.g. 500ms, 5s (default: ${DEFAULT-VALUE}).")
    private Duration timeout;

    @Override
    public Integer call() throws InterruptedException {
        NodeAddress target;
        // The status page's URL as a node prints it works too.
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
        URI uri = URI.create("http://" + host + ":" + target.port() + "/status.json");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        HttpResponse<String> response;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
            response = client.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            err.println("riptide status: no answer from " + uri + " within " + timeout.toMillis() + " ms; the node may be"
                    + " overloaded or something else listens there.");
            return 1;
        } catch (IOException e) {
            err.println("riptide status: nothing answers at " + uri + " (" + reason(e) + "). Check that the node runs and"
                    + " was started with --admin-port " + target.port() + " (a browser proxy answers on its own --port),"
                    + " or give another address with --admin HOST:PORT.");
            return 1;
        }
        if (response.statusCode() != 200) {
            err.println("riptide status: " + uri + " answered HTTP " + response.statusCode() + ": " + response.body().strip());
            return 1;
        }
        if (json) {
            out.print(response.body());
            out.flush();
            return 0;
        }
        try {
            summarise(new ObjectMapper().readTree(response.body()), out);
        } catch (IOException e) {
            err.println("riptide status: " + uri + " answered, but not with a status document: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    /** The title and the headline figures, one per line, then how many rows each table has. */
    private static void summarise(JsonNode status, PrintWriter out) throws IOException {
        if (!status.path("summary").isObject()) {
            throw new IOException("no summary in it");
        }
        out.println(status.path("title").asText("Riptide"));
        Iterator<Map.Entry<String, JsonNode>> fields = status.path("summary").fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            out.printf("  %-14s %s%n", f.getKey(), f.getValue().asText());
        }
        StringBuilder tables = new StringBuilder();
        for (JsonNode t : status.path("tables")) {
            tables.append(tables.isEmpty() ? "" : ", ").append(t.path("title").asText()).append(' ').append(t.path("rows").size());
        }
        if (!tables.isEmpty()) {
            out.println("  tables: " + tables + " (rows; the full page with --json or in a browser)");
        }
        out.flush();
    }

    private static String reason(IOException e) {
        String m = e.getMessage();
        if (e instanceof java.net.ConnectException || m == null || m.isBlank()) {
            return "connection refused";
        }
        return m;
    }
}
