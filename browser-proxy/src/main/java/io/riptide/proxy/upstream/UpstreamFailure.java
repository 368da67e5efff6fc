package io.riptide.proxy.upstream;

/** Why a request could not be answered by its origin: the status to send the browser (502 or 504) and a readable reason. */
public record UpstreamFailure(int status, String message) {
}
