package io.riptide.gateway;

import io.riptide.gateway.origin.OriginRequest;
import io.riptide.gateway.origin.OriginResponse;
import java.util.concurrent.CompletableFuture;

/**
 * Where a gateway gets web content: the real HTTP client ({@code OriginFetcher::fetch}) or, in
 * simulation and tests, a model of an origin. Failures complete the future with a
 * {@code FetchException}.
 */
@FunctionalInterface
public interface Origin {
    CompletableFuture<OriginResponse> fetch(OriginRequest request);
}
