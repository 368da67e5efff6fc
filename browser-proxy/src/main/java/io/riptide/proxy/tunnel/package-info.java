/** CONNECT tunnels: a TCP connection to the target and a byte relay each way with backpressure. */
package io.riptide.proxy.tunnel;
