package io.riptide.dolr.transport;

/** Which end of a connection a node is; signed into the handshake so a proof can't be reflected back. */
enum Role {
    CLIENT('C'),
    SERVER('S');

    private final char code;

    Role(char code) {
        this.code = code;
    }

    /** The byte that stands for this role in a transcript. */
    byte code() {
        return (byte) code;
    }

    /** The other end. */
    Role peer() {
        return this == CLIENT ? SERVER : CLIENT;
    }
}
