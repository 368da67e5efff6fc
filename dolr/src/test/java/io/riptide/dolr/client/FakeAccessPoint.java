package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.client.ClientMessages.ClientRead;
import io.riptide.dolr.client.ClientMessages.ClientReadReply;
import io.riptide.dolr.membership.MembershipMessages.Ping;
import io.riptide.dolr.membership.MembershipMessages.Pong;
import java.time.Duration;
import java.util.function.Function;

/**
 * A simulated access node for client tests: answers pings at once and every read with {@code data}
 * after a service time the test chooses (and may change) per read, so one node can be made slow.
 */
final class FakeAccessPoint implements MessageHandler {
    private final SimEnv env;
    private final byte[] data;
    /** The service time of the next read, from the host's randomness; {@link #SILENT} never answers. */
    private Function<SimEnv, Duration> serviceTime = e -> Duration.ZERO;
    private long reads;
    /** Hung: it reads what it is sent and answers nothing, pings included, its connection still up. */
    private boolean hung;

    /** A service time that never answers. */
    static final Duration SILENT = Duration.ofDays(1);

    private FakeAccessPoint(SimEnv env, byte[] data) {
        this.env = env;
        this.data = data;
    }

    /** Starts one at {@code vertex} of {@code net}, answering reads with {@code data}. */
    static FakeAccessPoint start(SimNetwork net, int vertex, byte[] data) {
        FakeAccessPoint[] made = new FakeAccessPoint[1];
        net.start(Id.hash("fake access point " + vertex), vertex, env -> {
            made[0] = new FakeAccessPoint(env, data);
            return made[0];
        });
        return made[0];
    }

    /** Every read from now on takes {@code time} to serve. */
    void serveIn(Duration time) {
        serveIn(e -> time);
    }

    /** Every read from now on takes what {@code time} draws to serve. */
    void serveIn(Function<SimEnv, Duration> time) {
        serviceTime = time;
    }

    /** From now on it answers nothing, as a node whose loop is stuck or whose process is stopped. */
    void hang() {
        hung = true;
    }

    /** Reads this node received. */
    long reads() {
        return reads;
    }

    NodeAddress address() {
        return env.self().address();
    }

    NodeHandle handle() {
        return env.self();
    }

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (hung) {
            reads += message instanceof ClientRead ? 1 : 0;
        } else if (message instanceof Ping ping) {
            env.send(from.address(), new Pong(ping.nonce()));
        } else if (message instanceof ClientRead read) {
            reads++;
            Duration wait = serviceTime.apply(env);
            if (!wait.equals(SILENT)) {
                env.schedule(wait, () -> env.send(from.address(), new ClientReadReply(read.requestId(), read.guid(), null, 1, data)));
            }
        }
    }
}
