package io.riptide.proxy;

import io.riptide.proxy.cache.CacheLookup;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code java -jar riptide-browser-proxy.jar}: the proxy on its own, with no cache behind it (every lookup misses). */
@Command(name = "riptide-browser-proxy", mixinStandardHelpOptions = true,
        description = "An HTTP forward proxy for the browser; point the browser at http://HOST:PORT/proxy.pac.")
public final class ProxyMain implements Callable<Integer> {
    @Option(names = "--host", description = "address to listen on (default: ${DEFAULT-VALUE})")
    String host = "127.0.0.1";

    @Option(names = "--port", description = "port to listen on (default: ${DEFAULT-VALUE})")
    int port = 3128;

    @Option(names = "--pass-through", description = "never look anything up: measures the proxy's own overhead")
    boolean passThrough;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ProxyMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        ProxyConfig config = ProxyConfig.builder().host(host).port(port).passThrough(passThrough).build();
        ProxyServer proxy = ProxyServer.start(config, CacheLookup.NONE);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stopped.countDown();
        }, "riptide-proxy-shutdown"));
        var a = proxy.address();
        System.out.printf("riptide browser proxy on http://%s:%d/ (PAC: http://%s:%d/proxy.pac)%s%n",
                a.getHostString(), a.getPort(), a.getHostString(), a.getPort(), passThrough ? ", pass-through" : "");
        stopped.await();
        return 0;
    }
}
