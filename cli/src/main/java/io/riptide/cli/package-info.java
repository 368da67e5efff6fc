/**
 * The {@code riptide} command line: one picocli command per role or tool (node, gateway,
 * cache-manager, proxy, simulate, bench, inspect, status, keygen, ca, demo) and the option types they
 * share (durations, seeds, overlay and admin options). Commands parse and start; the work is in the
 * role modules.
 */
package io.riptide.cli;
