package io.riptide.cli.errors;

import io.riptide.cli.config.ConfigDefaults;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Reports a usage or config error as the message, the config line behind it if any, and where to
 * find help (not the whole usage), with exit code 2.
 */
public final class UsageErrorHandler implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        String name = command.getCommandSpec().qualifiedName();
        err.println(name + ": " + ex.getMessage() + ConfigDefaults.whereSet(command.getCommandSpec(), ex.getMessage()));
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + name + " --help' for the options and their defaults.");
        err.flush();
        return CommandLine.ExitCode.USAGE;
    }
}
