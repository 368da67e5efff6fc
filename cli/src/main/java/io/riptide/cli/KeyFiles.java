package io.riptide.cli;

import io.riptide.core.crypto.SigningKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Key files named on command lines: loaded, or created on first use, with errors that name the option. */
final class KeyFiles {
    private KeyFiles() {
    }

    /** The key in {@code file}, created there if missing; with no file, a key for this run only. */
    static SigningKey loadOrCreate(Path file, String option, CommandLine cl, PrintWriter out, String purpose) throws IOException {
        if (file == null) {
            RunningNode.say(out, "using a new key for this run only; pass " + option + " FILE to keep " + purpose);
            return SigningKey.generate(new SecureRandom());
        }
        if (Files.exists(file)) {
            return load(file, option, cl);
        }
        SigningKey key = SigningKey.generate(new SecureRandom());
        key.save(file);
        RunningNode.say(out, "created a new key in " + file.toAbsolutePath().normalize());
        return key;
    }

    /** The key in {@code file}, which must exist. */
    static SigningKey load(Path file, String option, CommandLine cl) {
        try {
            return SigningKey.load(file);
        } catch (IOException e) {
            throw new ParameterException(cl, option + ": cannot read the key: " + e.getMessage());
        }
    }
}
