package io.riptide.dolr.admin;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Something an operator asks a running agent to do ({@code POST /PATH?name=value}), as opposed to the
 * pages that only show its state. The admin server answers an action only from its own host and only
 * with the {@value #HEADER} field, which a browser cannot add to a page's cross-site form post: so a
 * web page visited on the operator's machine cannot trigger one.
 */
@FunctionalInterface
public interface AdminAction {
    /** The request field an action needs (any value); {@code riptide} sends it. */
    String HEADER = "X-Riptide-Admin";

    /** Runs the action with the request's query parameters; the answer's status and text go back as they are. */
    CompletableFuture<Answer> run(Map<String, List<String>> parameters);

    /** An action's outcome: an HTTP status and a line of text saying what happened. */
    record Answer(int status, String text) {
        public Answer {
            if (status < 200 || status > 599) {
                throw new IllegalArgumentException("not an HTTP status: " + status);
            }
        }
    }
}
