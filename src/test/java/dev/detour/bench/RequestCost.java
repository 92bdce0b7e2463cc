package dev.detour.bench;

import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Function;

/**
 * N-8 / N-7: what one request costs the whole App in bytes allocated — every Detour thread (Jetty's request
 * threads, the event writer, the state writer, timers) summed, the client and the fake upstream left out —
 * with and without the second wave's features on the path: per-key limits (L-1), an alert channel (W-1),
 * a bridged account (B-1). For streams, the cost per relayed frame: the difference between a long and a short
 * stream divided by the frames between them. Bytes are machine-independent; run on Java 17, where Jetty's
 * request threads are platform threads the JVM counts (a virtual thread's allocations are not reported).
 * Not a test: {@code bench/request-cost.sh} runs it from the test classes against the embedded MariaDB.
 */
public final class RequestCost {
    private static final String MODEL = "gpt-bench";
    private static final String BRIDGED = "claude-bench";
    private static final int SHORT_STREAM = 16;
    private static final int LONG_STREAM = 144;

    private final Gateway gw;
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private long proxied;

    private RequestCost(Gateway gw) {
        this.gw = gw;
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3_000;
        int accounts = args.length > 1 ? Integer.parseInt(args[1]) : 4; // N-10: the same legs with a bigger pool
        int status = 1; // a failure must still end the JVM: Jetty's and the database's threads would keep it up
        try (FakeUpstream upstream = FakeUpstream.start().handler(upstream()).keepRequests(false);
                Gateway gw = Gateway.start()) {
            new RequestCost(gw).run(upstream, rounds, accounts);
            status = 0;
        } catch (RuntimeException | Error e) {
            e.printStackTrace();
        }
        System.exit(status);
    }

    /** Chat answers, Messages answers for the bridged account, short and long streams 1 ms apart. */
    private static Function<RecordedRequest, Reply> upstream() {
        Function<RecordedRequest, Reply> shortStream = FakeUpstream.standaloneHandler(SHORT_STREAM, Duration.ofMillis(1));
        Function<RecordedRequest, Reply> longStream = FakeUpstream.standaloneHandler(LONG_STREAM, Duration.ofMillis(1));
        return request -> {
            if (request.path().startsWith("/v1/messages")) {
                return Reply.json(200, Bodies.anthropicMessage(request.model(), "bridged"));
            }
            return "gpt-long".equals(request.model()) ? longStream.apply(request) : shortStream.apply(request);
        };
    }

    private void run(FakeUpstream upstream, int rounds, int accounts) {
        for (int i = 1; i <= accounts; i++) {
            gw.account("openai-" + i, upstream, "[{\"from\":\"" + MODEL + "\",\"to\":\"" + MODEL + "\"},"
                    + "{\"from\":\"gpt-long\",\"to\":\"gpt-long\"}]", null);
        }
        gw.admin("POST", "/accounts", "{\"name\":\"claude-1\",\"group\":\"default\",\"platform\":\"anthropic\","
                + "\"base_url\":\"" + upstream.url() + "\",\"api_key\":\"sk-bench-claude-1-secret\","
                + "\"model_mappings\":[{\"from\":\"" + BRIDGED + "\",\"to\":\"" + BRIDGED + "\"}]}");
        String plain = gw.key();
        // limits no request reaches (the clock is the test's, so a minute never ends): checked on every request
        String limited = gw.admin("POST", "/keys", "{\"name\":\"limited\",\"rpm_limit\":1000000000,"
                + "\"tpm_limit\":1000000000,\"concurrency_limit\":64,"
                + "\"spend_windows\":{\"5h\":1000000000000,\"day\":1000000000000}}").path("key").asText();

        System.out.println("| leg (" + accounts + " OpenAI accounts) "
                + "| bytes allocated per request (all Detour threads) |");
        System.out.println("|---|---:|");
        row("buffered chat, no limits, no alerts", perRequest(plain, chat(MODEL, false), rounds));
        row("buffered chat, limits on the key", perRequest(limited, chat(MODEL, false), rounds));
        String channel = gw.admin("POST", "/alerts/channels", "{\"name\":\"bench\",\"kind\":\"webhook\","
                + "\"url\":\"https://alerts.example.invalid/hook\"}").toString();
        if (!channel.contains("\"id\"")) {
            System.out.println("(alert channel not created: " + channel + ")");
        }
        row("buffered chat, limits on the key, an alert channel", perRequest(limited, chat(MODEL, false), rounds));
        row("buffered chat bridged to Messages, limits, alerts", perRequest(limited, chat(BRIDGED, false), rounds));
        int streams = Math.max(200, rounds / 10);
        long shortStream = perRequest(plain, chat(MODEL, true), streams);
        long longStream = perRequest(plain, chat("gpt-long", true), streams);
        row("stream of " + SHORT_STREAM + " frames (per stream)", shortStream);
        row("stream of " + LONG_STREAM + " frames (per stream)", longStream);
        row("per relayed frame ((long − short) / " + (LONG_STREAM - SHORT_STREAM) + ")",
                (longStream - shortStream) / (LONG_STREAM - SHORT_STREAM));
    }

    private static void row(String leg, long bytes) {
        System.out.printf("| %s | %,d |%n", leg, bytes);
    }

    /** Warms the leg with as many requests, then counts what the measured ones allocate on Detour's threads. */
    private long perRequest(String key, String body, int count) {
        send(key, body, count);
        long before = detourAllocatedBytes();
        send(key, body, count);
        return (detourAllocatedBytes() - before) / count;
    }

    private void send(String key, String body, int count) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        for (int i = 0; i < count; i++) {
            HttpResponse<String> answer = gw.send(request);
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("answer " + answer.statusCode() + ": " + answer.body());
            }
        }
        proxied += count;
        long expected = proxied;
        // the event writer's share belongs to the requests: wait until it has written them all
        Gateway.await(() -> gw.app.events().written() >= expected, "events written");
        gw.settled();
    }

    /** Bytes allocated so far by the live threads whose names start with "detour-" (the App's own). */
    private long detourAllocatedBytes() {
        long sum = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("detour-")) {
                long bytes = threads.getThreadAllocatedBytes(info.getThreadId());
                sum += Math.max(0, bytes);
            }
        }
        return sum;
    }

    private static String chat(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"say something\"}]}";
    }
}
