/** The browser-proxy agent; built by its own issue on top of the overlay (see the issue tracker). */
package io.riptide.proxy;
