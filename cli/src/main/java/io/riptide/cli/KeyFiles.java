package io.riptide.cli;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Key files named on command lines: loaded, or created on first use, with errors that name the
 * option, the file and what to do about it. A bad key is a usage error (exit code 2): nothing starts.
 */
final class KeyFiles {
    private KeyFiles() {
    }

    /** The key in {@code file}, created there if missing; with no file, a key for this run only. */
    static SigningKey loadOrCreate(Path file, String option, CommandLine cl, PrintWriter out, String purpose) {
        if (file == null) {
            RunningNode.say(out, "using a new key for this run only; pass " + option + " FILE to keep " + purpose);
            return SigningKey.generate(new SecureRandom());
        }
        if (Files.exists(file)) {
            return load(file, option, cl);
        }
        SigningKey key = SigningKey.generate(new SecureRandom());
        try {
            key.save(file);
        } catch (IOException e) {
            throw new ParameterException(cl, option + ": cannot create a key at " + file + " (" + reason(e)
                    + "): check that its directory exists and is writable by this user");
        }
        RunningNode.say(out, "created a new key in " + file.toAbsolutePath().normalize());
        return key;
    }

    /** The key in {@code file}, which must exist. */
    static SigningKey load(Path file, String option, CommandLine cl) {
        if (!Files.exists(file)) {
            throw new ParameterException(cl, option + ": no key file at " + file + ": make one with 'riptide keygen --out "
                    + file + "', or check the path");
        }
        if (Files.isDirectory(file)) {
            throw new ParameterException(cl, option + ": " + file + " is a directory, not a key file");
        }
        try {
            return SigningKey.load(file);
        } catch (AccessDeniedException e) {
            throw new ParameterException(cl, option + ": cannot read " + file
                    + ": permission denied; the key must be readable by the user running riptide");
        } catch (IOException | RuntimeException e) {
            throw new ParameterException(cl, option + ": " + file + " is not a usable key file (" + reason(e)
                    + "): restore it from a backup, or make a new one with 'riptide keygen --out " + file
                    + " --force' (a new key is a new identity)");
        }
    }

    /** A provider's public key given as {@code ed25519:BASE64} or as a key file. */
    static PublicKey publicKey(String text, String option, CommandLine cl) {
        if (text.startsWith("ed25519:")) {
            try {
                return PublicKey.parse(text);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(cl, option + ": " + e.getMessage());
            }
        }
        return load(Path.of(text), option, cl).publicKey();
    }

    private static String reason(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
