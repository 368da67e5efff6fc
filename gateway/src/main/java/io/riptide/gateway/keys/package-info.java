/**
 * A gateway's provider key records ({@code KeyPublisher}): the rotation certificates leading to the
 * key it signs with, published where proxies read them, and revocations its operator hands it
 * ({@code riptide revoke}), sent down the dissemination trees of the objects the revoked key signed.
 * See docs/operations.md, "Rotating and revoking a provider key".
 */
package io.riptide.gateway.keys;
