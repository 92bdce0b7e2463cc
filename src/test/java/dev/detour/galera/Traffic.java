package dev.detour.galera;

import dev.detour.testkit.LoadClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Clients sending one chat request after another through a pool's nginx until stopped, each request with its own
 * id as its message (so the fake upstream can tell a replay); answers counted by status, failures kept with the
 * moment they were sent. Sent by a {@link LoadClient}: JDK 17's HttpClient failed a served request now and then
 * (a "failure" Detour never made, seen in ScaleOutFaultsOnGaleraIT's outage leg).
 */
final class Traffic {
    /**
     * A request that was not answered 200 (status -1: no answer), with the answer's {@code error.code} ("" when
     * none), sent at {@code startedAt} (nanoTime), after {@code millis}; {@code detail}: the client's exception
     * when no answer came (what a failed run must tell), else "".
     */
    record Failed(String id, int status, String code, long startedAt, long millis, String detail) {
        /** X-4's minimum body rate (408 request.too_slow): on the loaded test machine, not a database effect. */
        boolean bodyTooSlow() {
            return status == 408 && code.equals("request.too_slow");
        }
    }

    private static final Pattern MODEL = Pattern.compile("\"model\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern CONTENT = Pattern.compile("\"content\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([^\"]+)\"");
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger sent = new AtomicInteger();
    private final Map<Integer, AtomicInteger> answers = new ConcurrentHashMap<>();
    private final List<Failed> failed = new CopyOnWriteArrayList<>();
    /** Detour's request id of each 200 answer, with the wall time it was sent (a lost event is named by it). */
    private final Map<String, Long> servedIds = new ConcurrentHashMap<>();
    private final ExecutorService clients;
    private final LoadClient http;

    private Traffic(int clients) {
        this.clients = Executors.newFixedThreadPool(clients);
        this.http = new LoadClient(clients);
    }

    /** {@code clients} clients on {@code model}, the ids {@code prefix-1}, {@code prefix-2}, … */
    static Traffic start(GaleraPool pool, String model, String prefix, int clients) {
        Traffic traffic = new Traffic(clients);
        AtomicInteger ids = new AtomicInteger();
        for (int c = 0; c < clients; c++) {
            traffic.clients.submit(() -> {
                while (traffic.running.get()) {
                    String id = prefix + "-" + ids.incrementAndGet();
                    long startedAt = System.nanoTime();
                    long sentAtMillis = System.currentTimeMillis();
                    int status;
                    String body;
                    String detail = "";
                    try {
                        LoadClient.Answer answer = traffic.http.post(pool.nginx.url() + "/v1/chat/completions",
                                Map.of("Authorization", "Bearer " + pool.key), GaleraPool.chatBody(model, id));
                        status = answer.status();
                        body = answer.body();
                        String requestId = answer.header("x-detour-request-id");
                        if (status == 200 && requestId != null) {
                            traffic.servedIds.put(requestId, sentAtMillis);
                        }
                    } catch (IOException e) {
                        status = -1;
                        body = "";
                        detail = e.toString();
                    }
                    long millis = (System.nanoTime() - startedAt) / 1_000_000;
                    traffic.sent.incrementAndGet();
                    traffic.answers.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    if (status != 200) {
                        traffic.failed.add(new Failed(id, status, field(CODE, body), startedAt, millis, detail));
                    }
                }
            });
        }
        return traffic;
    }

    /** Waits until {@code requests} more have been answered (a hang guard of 2 minutes). */
    void awaitMore(int requests, String what) throws InterruptedException {
        int target = sent.get() + requests;
        awaitUpTo(Duration.ofMinutes(2), () -> sent.get() >= target, what);
    }

    void stop() throws InterruptedException, IOException {
        running.set(false);
        clients.shutdown();
        if (!clients.awaitTermination(1, TimeUnit.MINUTES)) {
            throw new AssertionError("the traffic clients did not stop");
        }
        http.close();
    }

    int sent() {
        return sent.get();
    }

    Map<Integer, Integer> answers() {
        Map<Integer, Integer> counts = new TreeMap<>();
        answers.forEach((s, n) -> counts.put(s, n.get()));
        return counts;
    }

    List<Failed> failed() {
        return failed;
    }

    List<String> failedIds() {
        return failed.stream().map(Failed::id).toList();
    }

    /** The failures other than X-4's 408 request.too_slow (see {@link Failed#bodyTooSlow()}). */
    List<Failed> failedOtherThanBodyRate() {
        return failed.stream().filter(f -> !f.bodyTooSlow()).toList();
    }

    /** Detour's request ids of the 200 answers, each with the wall time (epoch ms) it was sent. */
    Map<String, Long> servedIds() {
        return Map.copyOf(servedIds);
    }

    /** Requests answered 200. */
    int served() {
        return answers().getOrDefault(200, 0);
    }

    /** The model a request body names ("" when none). */
    static String modelIn(String body) {
        return field(MODEL, body);
    }

    /** The id a request of this traffic carries as its message ("" when none). */
    static String idIn(String body) {
        return field(CONTENT, body);
    }

    private static String field(Pattern pattern, String body) {
        Matcher m = pattern.matcher(body);
        return m.find() ? m.group(1) : "";
    }

    /** A long wait's hang guard (Gateway.await stops at 30 s); never a timing assertion. */
    static void awaitUpTo(Duration cap, BooleanSupplier condition, String what) throws InterruptedException {
        awaitUpTo(cap, condition, what, () -> "");
    }

    /** As above; {@code report} is asked only when the wait fails, for what that failure must tell. */
    static void awaitUpTo(Duration cap, BooleanSupplier condition, String what, Supplier<String> report)
            throws InterruptedException {
        long deadline = System.nanoTime() + cap.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + cap + ": " + what + report.get());
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }
}
