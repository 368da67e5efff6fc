/** The gateway's part of the admin server's status page and metrics. */
package io.riptide.gateway.admin;
