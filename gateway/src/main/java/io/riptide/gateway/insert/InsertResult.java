package io.riptide.gateway.insert;

import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.id.Id;

/** What an insert came to, before it is addressed to each waiter. */
public record InsertResult(String url, Id guid, long version, Outcome outcome, String reason) {
}
