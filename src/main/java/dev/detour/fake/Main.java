package dev.detour.fake;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The fake upstream on its own, from the shipped jar ({@code java -cp detour.jar dev.detour.fake.Main …}):
 * <pre>
 *   chat [PORT=8089] [DELTAS=20] [GAP_MS=20]   the default chat completion; "stream":true gets a role
 *                                              chunk, DELTAS deltas GAP_MS apart, a stop chunk, [DONE]
 *   bench PORT [KEYSTORE]                      what bench/run.sh measures against ({@link BenchScript}); with a
 *                                              PKCS12 key store (password FAKE_TLS_PASSWORD, default changeit),
 *                                              over https
 *   bench-json                                 print the bench's chat completion (nginx serves it too)
 *   bench-messages-json                        print the bench's Messages answer (nginx serves it too)
 * </pre>
 */
public final class Main {
    /** nginx keeps its upstream connections 300 s (bench/run.sh): the fake must not close them first. */
    private static final Duration BENCH_IDLE_TIMEOUT = Duration.ofSeconds(300);

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        String script = args.length > 0 ? args[0] : "chat";
        switch (script) {
            case "chat" -> serve(FakeUpstream.start(intArg(args, 1, 8089)).handler(FakeUpstream.standaloneHandler(
                    intArg(args, 2, 20), Duration.ofMillis(intArg(args, 3, 20)))));
            case "bench" -> serve(benchUpstream(args).idleTimeout(BENCH_IDLE_TIMEOUT).handler(BenchScript::answer));
            case "bench-json" -> System.out.println(BenchScript.COMPLETION_JSON);
            case "bench-messages-json" -> System.out.println(BenchScript.MESSAGES_JSON);
            default -> throw new IllegalArgumentException(
                    "usage: Main chat [PORT] [DELTAS] [GAP_MS] | bench PORT [KEYSTORE] | bench-json | bench-messages-json");
        }
    }

    private static FakeUpstream benchUpstream(String[] args) {
        int port = intArg(args, 1, 0);
        if (args.length < 3) {
            return FakeUpstream.start(port);
        }
        String password = System.getenv().getOrDefault("FAKE_TLS_PASSWORD", "changeit");
        return FakeUpstream.startTls(port, Path.of(args[2]), password);
    }

    /** Keeps no requests: a standalone fake answers for hours. */
    private static void serve(FakeUpstream fake) throws InterruptedException {
        fake.keepRequests(false);
        System.err.println("fake upstream listening on " + fake.url());
        fake.join();
    }

    private static int intArg(String[] args, int index, int otherwise) {
        return args.length > index ? Integer.parseInt(args[index]) : otherwise;
    }
}
