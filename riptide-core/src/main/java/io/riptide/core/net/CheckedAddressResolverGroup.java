package io.riptide.core.net;

import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Resolves names like the wrapped resolver does, then fails the resolution, and with it the connect,
 * when the judge refuses the address (for example {@link PublicAddresses#forbidden}: not a public one). The check is made on
 * the address the connection goes to, at every connect, so a name that resolved to a public address
 * when it was asked for and to a private one now (DNS rebinding) is still refused. IP literals go
 * through the same check: nothing counts as already resolved.
 */
public final class CheckedAddressResolverGroup extends AddressResolverGroup<InetSocketAddress> {
    private final AddressResolverGroup<InetSocketAddress> names;
    private final Function<InetAddress, String> judge;

    /**
     * Resolves names with {@code names} (not owned: closing this group leaves it open) and refuses
     * the addresses {@code judge} names a kind for (see {@link PublicAddresses#forbidden}).
     */
    public CheckedAddressResolverGroup(AddressResolverGroup<InetSocketAddress> names, Function<InetAddress, String> judge) {
        this.names = Objects.requireNonNull(names, "names");
        this.judge = Objects.requireNonNull(judge, "judge");
    }

    @Override
    protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
        return new Checking(executor, names.getResolver(executor), judge);
    }

    private static final class Checking extends AbstractAddressResolver<InetSocketAddress> {
        private final AddressResolver<InetSocketAddress> names;
        private final Function<InetAddress, String> judge;

        Checking(EventExecutor executor, AddressResolver<InetSocketAddress> names, Function<InetAddress, String> judge) {
            super(executor, InetSocketAddress.class);
            this.names = names;
            this.judge = judge;
        }

        @Override
        protected boolean doIsResolved(InetSocketAddress address) {
            return false; // even an address given resolved is checked
        }

        @Override
        protected void doResolve(InetSocketAddress unresolved, Promise<InetSocketAddress> promise) {
            names.resolve(unresolved).addListener((Future<InetSocketAddress> f) -> {
                if (!f.isSuccess()) {
                    promise.tryFailure(f.cause());
                    return;
                }
                InetSocketAddress resolved = f.getNow();
                ForbiddenAddressException refused = check(unresolved, resolved);
                if (refused != null) {
                    promise.tryFailure(refused);
                } else {
                    promise.trySuccess(resolved);
                }
            });
        }

        @Override
        protected void doResolveAll(InetSocketAddress unresolved, Promise<List<InetSocketAddress>> promise) {
            names.resolveAll(unresolved).addListener((Future<List<InetSocketAddress>> f) -> {
                if (!f.isSuccess()) {
                    promise.tryFailure(f.cause());
                    return;
                }
                for (InetSocketAddress resolved : f.getNow()) {
                    ForbiddenAddressException refused = check(unresolved, resolved);
                    if (refused != null) {
                        promise.tryFailure(refused);
                        return;
                    }
                }
                promise.trySuccess(f.getNow());
            });
        }

        private ForbiddenAddressException check(InetSocketAddress asked, InetSocketAddress resolved) {
            if (resolved.getAddress() == null) {
                return null; // not resolved: the connect fails on its own
            }
            String kind = judge.apply(resolved.getAddress());
            return kind == null ? null : new ForbiddenAddressException(asked.getHostString(), resolved.getAddress(), kind);
        }
    }
}
