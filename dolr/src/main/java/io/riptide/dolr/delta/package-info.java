/**
 * Binary deltas between two versions of an object: copy-from-old and insert-literal operations,
 * so a small edit to a large object travels as a few bytes.
 */
package io.riptide.dolr.delta;
