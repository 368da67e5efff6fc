/** The cache manager's part of the admin server's status page and metrics. */
package io.riptide.cachemanager.admin;
