package io.riptide.cli.errors;

import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception out of a running command into one line that says what went wrong and what to
 * do, and exit code 1. The stack trace is for developers: only with {@code --debug} or RIPTIDE_DEBUG=1.
 */
public final class FailureHandler implements IExecutionExceptionHandler {
    private final Map<String, String> env;

    /** {@code env}: the process environment (a map, so tests can choose). */
    public FailureHandler(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) {
        PrintWriter err = command.getErr();
        err.println(command.getCommandSpec().qualifiedName() + ": " + describe(ex, command));
        if (debug(command)) {
            ex.printStackTrace(err);
        }
        err.flush();
        return CommandLine.ExitCode.SOFTWARE;
    }

    private static String describe(Exception ex, CommandLine command) {
        if (ex instanceof CommandFailure) {
            return ex.getMessage();
        }
        OptionSpec port = command.getCommandSpec().findOption("--port");
        if (CommandFailure.inUse(ex) && port != null && port.getValue() != null) {
            return CommandFailure.portInUse(port.getValue(), "--port");
        }
        return "unexpected error: " + ex + "; run again with --debug (or " + DebugOption.ENV
                + "=1) for the stack trace, and report it if it happens again";
    }

    private boolean debug(CommandLine command) {
        String fromEnv = env.get(DebugOption.ENV);
        if (fromEnv != null && !fromEnv.isEmpty() && !fromEnv.equals("0")) {
            return true;
        }
        OptionSpec option = command.getCommandSpec().findOption(DebugOption.NAME);
        return option != null && Boolean.TRUE.equals(option.getValue());
    }
}
