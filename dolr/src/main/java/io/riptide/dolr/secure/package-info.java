/**
 * Reads that hostile peers cannot make fail or lie cheaply: independent attempts by diverse routes
 * (salted roots, other first hops) once the plain read fails, is late or answers bytes that fail the
 * caller's verification, after Castro et al., "Secure routing for structured peer-to-peer overlay
 * networks" (2002). Protocol code on the runtime seam, like the rest of the DOLR.
 */
package io.riptide.dolr.secure;
