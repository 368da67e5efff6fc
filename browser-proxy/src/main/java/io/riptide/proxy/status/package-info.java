/** The proxy's own pages: the PAC file, the status page and the Prometheus metrics. */
package io.riptide.proxy.status;
