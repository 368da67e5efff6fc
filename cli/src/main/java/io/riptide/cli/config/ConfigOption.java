package io.riptide.cli.config;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Stack;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The {@code --config FILE} option, as a mixin any command can take. When picocli meets it, the file
 * is read and checked against every option of that command (mixins included), and its values become
 * the command's defaults; the command line wins over the file.
 */
public final class ConfigOption {
    /** The option's name, which is not itself a key in a file. */
    public static final String NAME = "--config";

    @Option(names = NAME, paramLabel = "FILE", preprocessor = Loader.class,
            description = "Read options from FILE: 'key = value' lines, keys being the long option names without dashes"
                    + " (docs/configuration.md). Options on the command line win (default: none).")
    private Path file;

    /** The file given, or null. */
    public Path file() {
        return file;
    }

    /** Loads the file when picocli reaches {@code --config}, before the command's defaults are applied. */
    static final class Loader implements IParameterPreprocessor {
        @Override
        public boolean preprocess(Stack<String> args, CommandSpec command, ArgSpec option, Map<String, Object> info) {
            if (args.isEmpty()) {
                return false; // picocli reports the missing FILE
            }
            String name = args.peek();
            ConfigFile file;
            try {
                file = read(Path.of(name), command);
            } catch (InvalidPathException e) {
                throw new ParameterException(command.commandLine(), NAME + ": not a file name: " + e.getMessage());
            }
            ConfigBinding binding = ConfigBinding.bind(file, command);
            if (!binding.errors().isEmpty()) {
                throw new ParameterException(command.commandLine(), new ConfigErrors(name, binding.errors()).message());
            }
            Set<OptionSpec> given = onCommandLine(command, args);
            Map<OptionSpec, String> single = new HashMap<>();
            Map<OptionSpec, List<ConfigEntry>> origins = new HashMap<>();
            List<String> lists = new ArrayList<>();
            for (Map.Entry<OptionSpec, List<String>> e : binding.values().entrySet()) {
                OptionSpec o = e.getKey();
                if (given.contains(o)) {
                    continue;
                }
                origins.put(o, binding.origins().get(o));
                if (o.isMultiValue()) {
                    // Picocli splits a default only by the option's split regex; each item as its own
                    // argument is what the command line would have given.
                    e.getValue().forEach(v -> lists.add(o.longestName() + "=" + v));
                } else {
                    single.put(o, e.getValue().get(0));
                }
            }
            command.defaultValueProvider(new ConfigDefaults(single, origins, command.defaultValueProvider()));
            String value = args.pop();
            Collections.reverse(lists);
            lists.forEach(args::push);
            args.push(value);
            return false;
        }

        private static ConfigFile read(Path path, CommandSpec command) {
            try {
                if (Files.isDirectory(path)) {
                    throw new IOException("it is a directory");
                }
                return ConfigFile.read(path);
            } catch (NoSuchFileException e) {
                throw new ParameterException(command.commandLine(), NAME + ": no such file: " + path
                        + " (a relative path is taken from " + Path.of("").toAbsolutePath() + ")");
            } catch (AccessDeniedException e) {
                throw new ParameterException(command.commandLine(), NAME + ": cannot read " + path
                        + ": permission denied; make it readable by the user running riptide");
            } catch (CharacterCodingException e) {
                throw new ParameterException(command.commandLine(), NAME + ": " + path + " is not UTF-8 text; is it a config file?");
            } catch (IOException e) {
                throw new ParameterException(command.commandLine(), NAME + ": cannot read " + path + ": " + e.getMessage());
            }
        }

        /**
         * The options named on the command line: those picocli matched before {@code --config}, and
         * those among the arguments still to come (up to {@code --}); the top of {@code rest} is FILE.
         */
        private static Set<OptionSpec> onCommandLine(CommandSpec command, Stack<String> rest) {
            Set<OptionSpec> given = Collections.newSetFromMap(new IdentityHashMap<>());
            for (OptionSpec o : command.options()) {
                if (!o.originalStringValues().isEmpty()) {
                    given.add(o);
                }
            }
            // A Stack lists bottom first: the next argument is at the end.
            for (int i = rest.size() - 2; i >= 0; i--) {
                String arg = rest.get(i);
                if (arg.equals("--")) {
                    break;
                }
                String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
                OptionSpec o = command.findOption(name);
                if (o != null && Arrays.asList(o.names()).contains(name)) {
                    given.add(o);
                }
            }
            return given;
        }
    }
}
