/**
 * Dissemination trees: the members holding replicas of one object attach under each other, the
 * primary at the root, so an update or heartbeat is pushed down the tree and crosses each stub's
 * uplink once; members seek nearer parents ({@code Seek}, {@code Here}, {@code Nearby}) and move.
 */
package io.riptide.dolr.dissemination;
