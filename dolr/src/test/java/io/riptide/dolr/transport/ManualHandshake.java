package io.riptide.dolr.transport;

import io.riptide.core.wire.Frames;
import io.riptide.core.crypto.EphemeralKey;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import java.security.SecureRandom;
import java.util.Arrays;

/** One side of the handshake worked by hand, for test peers: its Hello, its Proof, then the link's keys. */
final class ManualHandshake {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Role role;
    private final EphemeralKey ephemeral = EphemeralKey.generate(RANDOM);
    private final Hello hello;
    private Hello peerHello;

    /** A side playing {@code role} whose nonce is {@code nonceByte} repeated. */
    ManualHandshake(Role role, int nonceByte) {
        this.role = role;
        byte[] nonce = new byte[Hello.NONCE_BYTES];
        Arrays.fill(nonce, (byte) nonceByte);
        this.hello = new Hello(nonce, ephemeral.publicKey());
    }

    /** A well-formed Hello with {@code nonce} and a real ephemeral key, for tests that stop there. */
    static Hello hello(byte[] nonce) {
        return new Hello(nonce, EphemeralKey.generate(RANDOM).publicKey());
    }

    Hello hello() {
        return hello;
    }

    /** Our Proof for the peer's {@code peer} Hello: {@code presented}'s key and address, signed by {@code signer}. */
    Proof proof(Hello peer, SigningKey presented, SigningKey signer, NodeAddress advertised) {
        peerHello = peer;
        byte[] transcript = Transcript.of(Frames.OLDEST_VERSION, role, clientHello(), serverHello(), presented.publicKey(), advertised);
        return new Proof(presented.publicKey(), advertised, signer.sign(transcript));
    }

    /** The link's keys between {@code own} key and the peer's, once {@link #proof} has seen the peer's Hello. */
    LinkKeys keys(PublicKey own, PublicKey peer) {
        byte[] secret = ephemeral.agree(peerHello.ephemeralKey());
        PublicKey client = role == Role.CLIENT ? own : peer;
        PublicKey server = role == Role.SERVER ? own : peer;
        return LinkKeys.derive(role, secret, clientHello(), serverHello(), client, server);
    }

    Hello clientHello() {
        return role == Role.CLIENT ? hello : peerHello;
    }

    Hello serverHello() {
        return role == Role.SERVER ? hello : peerHello;
    }
}
