/**
 * {@code riptide bench}: measurements of the real system on loopback, each against its peers in the
 * same run where a claim is a ratio (Squid, nginx): the proxy's own overhead, hit throughput under
 * closed- and open-loop load, failover, gateway insert latency and the disk tier. Load generators,
 * the peers' processes and the result writers live here.
 */
package io.riptide.cli.bench;
