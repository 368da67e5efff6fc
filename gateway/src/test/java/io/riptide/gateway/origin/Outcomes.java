package io.riptide.gateway.origin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Bounded waits on fetch futures. */
final class Outcomes {
    private Outcomes() {
    }

    static OriginResponse response(CompletableFuture<OriginResponse> f) throws Exception {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError("fetch failed: " + e.getCause(), e.getCause());
        }
    }

    static FetchException failure(CompletableFuture<OriginResponse> f, FetchException.Reason expected)
            throws InterruptedException, TimeoutException {
        try {
            OriginResponse r = f.get(10, TimeUnit.SECONDS);
            return fail("expected " + expected + " but got status " + r.status());
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof FetchException fe)) {
                throw new AssertionError("not a FetchException", e.getCause());
            }
            assertEquals(expected, fe.reason(), fe.getMessage());
            return fe;
        }
    }
}
