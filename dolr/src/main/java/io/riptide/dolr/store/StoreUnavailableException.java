package io.riptide.dolr.store;

/** A node's disk store could not be opened: its directory or file cannot be created, read or written. */
public final class StoreUnavailableException extends RuntimeException {
    /** The store at {@code where} could not be opened because of {@code cause}. */
    public StoreUnavailableException(String where, Throwable cause) {
        super("cannot open the replica store in " + where + ": " + cause.getMessage(), cause);
    }
}
