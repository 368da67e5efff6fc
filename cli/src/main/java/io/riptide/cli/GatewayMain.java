package io.riptide.cli;

/** The gateway's own runnable jar ({@code java -jar riptide-gateway.jar ...}): {@code riptide gateway ...}. */
public final class GatewayMain {
    private GatewayMain() {
    }

    public static void main(String[] args) {
        Riptide.main(RoleJars.prepend("gateway", args));
    }
}
