package io.riptide.cli.errors;

import picocli.CommandLine.Option;

/** The {@code --debug} option, as a mixin: failures also print their stack trace. */
public final class DebugOption {
    /** The option's name, which {@link FailureHandler} looks for on the failed command. */
    public static final String NAME = "--debug";
    /** The environment variable that does the same for every command. */
    public static final String ENV = "RIPTIDE_DEBUG";

    @Option(names = NAME, description = "On a failure, also print the stack trace (default: off; RIPTIDE_DEBUG=1 does the same).")
    private boolean debug;
}
