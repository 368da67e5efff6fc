/**
 * The admin HTTP server every node and agent can run: an HTML status page, the same figures as JSON,
 * and Prometheus metrics, all built from one {@link io.riptide.dolr.admin.StatusReport}.
 */
package io.riptide.dolr.admin;
