/**
 * The overlay experiments' common parts: building a joined, settled overlay on a transit-stub
 * topology ({@code OverlayBuild}), the probe application that notes where routed messages arrive,
 * locate probes, and the yardsticks a measured route is judged by (the best tables PNS could hold,
 * {@code IdealRoutes}, and how near the real ones came, {@code TableQuality}).
 */
package io.riptide.simulator.overlay;
