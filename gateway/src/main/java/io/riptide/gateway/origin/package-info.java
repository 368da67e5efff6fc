/**
 * The gateway's origin fetcher: a Netty HTTP/1.1(S) client that fetches objects from origin servers
 * without the user's credentials, within hard limits on size, time, redirects and rate, and from
 * public addresses only unless private origins are allowed.
 */
package io.riptide.gateway.origin;
