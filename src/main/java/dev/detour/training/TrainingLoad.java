package dev.detour.training;

import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * N-6: the workload of the build's ahead-of-time training run ({@code bin/train-aot}). A JDK 25 AOT cache
 * holds the classes loaded and linked, and the method profiles gathered, while the training run served —
 * so the run must walk the paths production walks: buffered and streamed Chat Completions and Messages,
 * both native and through the bridge (B-1: Messages to a Chat account, Chat to an Anthropic one, streamed
 * too), a key with limits (L-1: counted on every request, and one refused), a failing account
 * (classification, cooldown, failover), the models list and the admin API's reads.
 * Runs in its own JVM against a started Detour:
 * {@code java -cp detour.jar dev.detour.training.TrainingLoad http://127.0.0.1:PORT ADMIN_TOKEN REQUESTS SECONDS}
 * (a count, so a busy build machine trains as much as an idle one; the time caps the build's wait).
 * Exits 1 when no request was answered, so a broken training never leaves a cache that trained nothing.
 */
public final class TrainingLoad {
    private static final Pattern KEY = Pattern.compile("\"key\"\\s*:\\s*\"(dtr-[^\"]+)\"");
    private static final int CLIENTS = 8;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String adminToken;
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    private TrainingLoad(String base, String adminToken) {
        this.base = base;
        this.adminToken = adminToken;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: TrainingLoad BASE_URL ADMIN_TOKEN REQUESTS SECONDS");
        }
        Result result = train(args[0], args[1], Long.parseLong(args[2]), Duration.ofSeconds(Long.parseLong(args[3])));
        System.out.printf("training load: %d answered, %d failed%n", result.answered(), result.failed());
        System.exit(result.answered() > 0 ? 0 : 1);
    }

    /** Answers below 400 and the rest (refusals and failures the mix asks for included). */
    public record Result(long answered, long failed) {
    }

    /** Provisions the training pool and keys on the Detour at {@code base} and sends it the mix. */
    public static Result train(String base, String adminToken, long requests, Duration cap) throws Exception {
        TrainingLoad load = new TrainingLoad(base, adminToken);
        try (FakeUpstream fake = FakeUpstream.start(0).handler(upstream()).keepRequests(false)) {
            Keys keys = load.provision(fake.url());
            load.run(keys, requests, cap);
        }
        return new Result(load.answered.get(), load.failed.get());
    }

    /** The training keys: one without limits, one with limits no request reaches, one refused after its first. */
    private record Keys(String plain, String limited, String refused) {
    }

    /** Chat and Messages answers, short streams (1 ms apart: the run trains code, not waiting). */
    private static Function<RecordedRequest, Reply> upstream() {
        Function<RecordedRequest, Reply> chat = FakeUpstream.standaloneHandler(16, Duration.ofMillis(1));
        return request -> request.path().startsWith("/v1/messages")
                ? Reply.json(200, Bodies.anthropicMessage(request.model(), "trained"))
                : chat.apply(request);
    }

    /** A group, healthy OpenAI and Anthropic accounts, one that cannot be reached, and the keys. */
    private Keys provision(String upstream) throws Exception {
        admin("POST", "/admin/api/groups", "{\"name\":\"training\"}");
        for (int i = 1; i <= 3; i++) {
            admin("POST", "/admin/api/accounts", account("openai-" + i, "openai", upstream, "gpt-train", 10));
        }
        admin("POST", "/admin/api/accounts", account("claude-1", "anthropic", upstream, "claude-train", 10));
        // port 9 (discard) refuses on loopback: a connect failure, classified and cooled like a real one
        admin("POST", "/admin/api/accounts", account("unreachable", "openai", "http://127.0.0.1:9", "gpt-train", 1));
        return new Keys(key("{\"name\":\"training\"}"),
                key("{\"name\":\"training-limited\",\"rpm_limit\":1000000000,\"tpm_limit\":1000000000,"
                        + "\"concurrency_limit\":10000,\"spend_windows\":{\"5h\":1000000000000,\"day\":1000000000000}}"),
                key("{\"name\":\"training-refused\",\"rpm_limit\":1}"));
    }

    private String key(String body) throws Exception {
        Matcher key = KEY.matcher(admin("POST", "/admin/api/keys", body));
        if (!key.find()) {
            throw new IllegalStateException("POST /admin/api/keys returned no key");
        }
        return key.group(1);
    }

    private static String account(String name, String platform, String baseUrl, String model, int weight) {
        return "{\"name\":\"" + name + "\",\"group\":\"training\",\"platform\":\"" + platform + "\",\"base_url\":\""
                + baseUrl + "\",\"api_key\":\"sk-training-" + name + "-0001\",\"model_mappings\":[{\"from\":\""
                + model + "\",\"to\":\"" + model + "\"}],\"weight\":" + weight + "}";
    }

    private void run(Keys keys, long requests, Duration cap) throws InterruptedException {
        long end = System.nanoTime() + cap.toNanos();
        Thread[] clients = new Thread[CLIENTS];
        for (int c = 0; c < CLIENTS; c++) {
            int client = c;
            clients[c] = new Thread(() -> {
                for (long n = client; n < requests && System.nanoTime() < end; n += CLIENTS) {
                    send(requestNumber(n, keys));
                }
            }, "training-" + c);
            clients[c].start();
        }
        for (Thread client : clients) {
            client.join();
        }
    }

    /**
     * Mostly buffered chat, as production traffic is, half of it on the key with limits; every tenth a stream;
     * Messages native and bridged; Chat bridged to the Anthropic account; models, admin; a refused key.
     */
    private HttpRequest requestNumber(long n, Keys keys) {
        int kind = (int) (n % 20);
        return switch (kind) {
            case 0, 10 -> proxy(n % 40 == 0 ? keys.plain() : keys.limited(), "/v1/chat/completions", chat(true));
            case 3 -> proxy(keys.limited(), "/v1/messages", messages("gpt-train", false)); // bridged to Chat
            case 5 -> proxy(keys.plain(), "/v1/messages", messages("claude-train", false));
            case 7 -> proxy(keys.limited(), "/v1/chat/completions", // bridged to Messages
                    "{\"model\":\"claude-train\",\"messages\":[{\"role\":\"user\",\"content\":\"say something\"}]}");
            case 13 -> proxy(keys.plain(), "/v1/messages", messages("gpt-train", true)); // a bridged stream
            case 15 -> HttpRequest.newBuilder(URI.create(base + "/v1/models"))
                    .header("Authorization", "Bearer " + keys.plain()).GET().build();
            case 17 -> proxy(keys.refused(), "/v1/chat/completions", chat(false)); // L-1: 429 after the first
            case 19 -> n % 200 == 19 ? adminRequest("GET", "/admin/api/accounts", null)
                    : proxy(keys.plain(), "/v1/chat/completions", chat(false));
            default -> proxy(n % 2 == 0 ? keys.plain() : keys.limited(), "/v1/chat/completions", chat(false));
        };
    }

    private static String messages(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":64,\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    }

    private static String chat(boolean stream) {
        return "{\"model\":\"gpt-train\",\"stream\":" + stream
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"say something\"}]}";
    }

    private HttpRequest proxy(String key, String path, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private void send(HttpRequest request) {
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            (response.statusCode() < 400 ? answered : failed).incrementAndGet();
        } catch (Exception e) {
            failed.incrementAndGet();
        }
    }

    private String admin(String method, String path, String body) throws Exception {
        HttpResponse<String> response = http.send(adminRequest(method, path, body), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + " → " + response.statusCode() + ": " + response.body());
        }
        return response.body();
    }

    private HttpRequest adminRequest(String method, String path, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + adminToken)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
    }
}
