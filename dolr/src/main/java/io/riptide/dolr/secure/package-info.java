/**
 * Reads that hostile peers cannot make fail or lie cheaply: independent attempts by diverse routes
 * (salted roots, other first hops) once the plain read fails, is late or answers bytes that fail the
 * caller's verification, after Castro et al., "Secure routing for structured peer-to-peer overlay
 * networks" (2002); and the bound on what one address can take of a node's routing state: at most so
 * many node IDs from one address prefix ({@code SourceLimits}, {@code SourceGroup},
 * {@code SourceLimit}), since keys, and so IDs, are free. Protocol code on the runtime seam, like the
 * rest of the DOLR.
 */
package io.riptide.dolr.secure;
