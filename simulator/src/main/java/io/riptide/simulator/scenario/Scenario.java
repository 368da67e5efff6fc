package io.riptide.simulator.scenario;

/**
 * One named experiment run by {@code riptide simulate <name>}.
 *
 * <p>A scenario reads its options from {@link ScenarioContext#options()} (throwing
 * {@link ScenarioOptionException} for bad ones, which the command reports as a usage error), draws all
 * randomness from {@link ScenarioContext#seed()}, shows progress on {@link ScenarioContext#progress()},
 * and writes to {@link ScenarioContext#outDir()}: {@code result.json} (via
 * {@link io.riptide.simulator.report.ResultJson}; same seed and options, same bytes), CSV of each plotted
 * series and PNG charts. Register it in {@link Scenarios#builtIn()}.
 */
public interface Scenario {
    /** The name on the command line, lower-case with dashes, e.g. {@code routing-scale}. */
    String name();

    /** One line saying what the scenario measures, shown in listings. */
    String description();

    /**
     * Whether a missed target ({@code target_met} false in {@code result.json}) is a failure of the
     * run, so that {@code simulate} exits non-zero: for scenarios that check invariants rather than
     * measure figures ({@code faults}). Others report a miss and exit 0.
     */
    default boolean missIsFailure() {
        return false;
    }

    /** Runs the experiment and writes its outputs. */
    void run(ScenarioContext context) throws Exception;
}
