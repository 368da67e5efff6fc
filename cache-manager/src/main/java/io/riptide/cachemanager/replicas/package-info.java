/**
 * Where a cache manager makes replicas: for slow hits ({@link io.riptide.cachemanager.replicas.SlowHits},
 * on its node or up the object's tree), for what it had a gateway insert ({@link
 * io.riptide.cachemanager.replicas.InsertedCopies}, on its node and one per remote area that missed it),
 * and at the node its campus's readers are nearest ({@link io.riptide.cachemanager.replicas.CampusCentre}).
 */
package io.riptide.cachemanager.replicas;
