package io.riptide.cli;

/**
 * What the one-role jars share: each is the whole {@code riptide} command with its subcommand
 * fixed, so an operator installs just the jar of the role a machine plays and its options, help
 * and exit codes are those of {@code riptide ROLE}.
 */
final class RoleJars {
    private RoleJars() {
    }

    /** {@code args} after {@code subcommand}. */
    static String[] prepend(String subcommand, String[] args) {
        String[] all = new String[args.length + 1];
        all[0] = subcommand;
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
