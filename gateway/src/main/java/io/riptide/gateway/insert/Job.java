package io.riptide.gateway.insert;

import io.riptide.core.gateway.GatewayMessages.Waiter;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** One insert in progress: the URL and request headers it fetches with, and everyone waiting for it. */
final class Job {
    final Id key;
    final CanonicalUrl url;
    final Headers requestHeaders;
    final List<Waiter> waiters = new ArrayList<>();
    final List<Consumer<InsertResult>> local = new ArrayList<>();
    boolean stale;

    Job(Id key, CanonicalUrl url, Headers requestHeaders) {
        this.key = key;
        this.url = url;
        this.requestHeaders = requestHeaders;
    }
}
