package io.riptide.core.object;

import java.util.Optional;

/** The outcome of checking a replica, certificate or heartbeat: accepted, or rejected with a reason. */
public sealed interface Verification permits Verification.Accepted, Verification.Rejected {
    /** What was checked and what was found, for logs. */
    String message();

    /** Whether it passed every check. */
    default boolean ok() {
        return this instanceof Accepted;
    }

    /** The reason for a rejection; empty if accepted. */
    default Optional<RejectReason> rejectReason() {
        return this instanceof Rejected r ? Optional.of(r.reason()) : Optional.empty();
    }

    static Verification accepted(String message) {
        return new Accepted(message);
    }

    static Verification rejected(RejectReason reason, String message) {
        return new Rejected(reason, message);
    }

    /** Passed every check. */
    record Accepted(String message) implements Verification {
    }

    /** Failed the check named by {@code reason}. */
    record Rejected(RejectReason reason, String message) implements Verification {
        public Rejected {
            if (reason == null) {
                throw new IllegalArgumentException("a rejection needs a reason");
            }
        }

        @Override
        public String toString() {
            return reason + ": " + message;
        }
    }
}
