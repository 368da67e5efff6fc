package io.riptide.cli;

import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.admin.AdminAction;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * An operator's action posted to a gateway's loopback admin server ({@code riptide purge}, {@code riptide
 * revoke}): {@code POST PATH?QUERY} with the {@link AdminAction#HEADER} field, the answer printed, and an
 * exit code: 0 for 200, 1 for anything else, with a message that says what to do.
 */
final class AdminPost {
    private final String command;
    private final NodeAddress target;
    private final Duration timeout;

    private AdminPost(String command, NodeAddress target, Duration timeout) {
        this.command = command;
        this.target = target;
        this.timeout = timeout;
    }

    /** Checks {@code admin} (HOST:PORT, an http:// prefix allowed) and {@code timeout}; usage errors are thrown. */
    static AdminPost to(String command, String admin, Duration timeout, CommandLine cl) {
        NodeAddress target;
        String hostPort = admin.replaceFirst("^http://", "").replaceFirst("/.*$", "");
        try {
            target = NodeAddress.parse(hostPort);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, "--admin: " + e.getMessage());
        }
        if (timeout.isZero() || timeout.isNegative()) {
            throw new ParameterException(cl, "--timeout must be longer than zero");
        }
        return new AdminPost(command, target, timeout);
    }

    /** Posts to {@code pathAndQuery} (already escaped) and reports; {@code pending} says what may still happen on a timeout. */
    int post(String pathAndQuery, String pending, PrintWriter out, PrintWriter err) throws InterruptedException {
        String host = target.host().contains(":") ? "[" + target.host() + "]" : target.host();
        URI uri = URI.create("http://" + host + ":" + target.port() + pathAndQuery);
        String name = "riptide " + command;
        HttpResponse<String> response;
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
            response = client.send(HttpRequest.newBuilder(uri).timeout(timeout).header(AdminAction.HEADER, command)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            err.println(name + ": the gateway at " + target + " did not answer within " + timeout.toMillis()
                    + " ms; " + pending + ": run the command again to see.");
            return 1;
        } catch (IOException e) {
            err.println(name + ": no gateway answers at " + target + " (" + (e.getMessage() == null
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
                    err.println(name + ": the admin server at " + target + " is not a gateway's (" + text + ")");
                } else {
                    err.println(name + ": " + text);
                }
                return 1;
            default:
                err.println(name + ": the gateway answered HTTP " + response.statusCode() + ": " + text);
                return 1;
        }
    }
}
