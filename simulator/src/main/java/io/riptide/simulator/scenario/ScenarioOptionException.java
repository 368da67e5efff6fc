package io.riptide.simulator.scenario;

/** A scenario option has a value the scenario cannot use; the message says which option and why. */
public final class ScenarioOptionException extends IllegalArgumentException {
    /** An error about option {@code --name}. */
    public ScenarioOptionException(String name, String problem) {
        super("--" + name + ": " + problem);
    }
}
