/**
 * The cache-manager agent ({@link io.riptide.cachemanager.CacheManager}): turns proxies' hints into gateway
 * requests ({@code insert}), replicas near users ({@code replicas}), hot-object replicas in the stub
 * ({@code hot}), with the master-preserving replacement rule in {@code replacement}.
 */
package io.riptide.cachemanager;
