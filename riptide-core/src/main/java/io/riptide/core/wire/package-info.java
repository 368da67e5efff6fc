/**
 * The binary wire format every message travels in: frames with a version byte, the registry that
 * maps tags to message codecs, bounded readers and writers that refuse oversized fields, and the
 * question/answer envelope. Each protocol part registers its own messages; none is defined here.
 */
package io.riptide.core.wire;
