package dev.detour.bench.soak;

import dev.detour.testkit.DetourProcess;
import dev.detour.testkit.FakeUpstream;
import dev.detour.testkit.Fault;
import dev.detour.testkit.TcpFaultProxy;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The D-1…D-5 soak (bench/soak.sh runs it): a real {@code java -jar target/detour.jar} with its embedded
 * MariaDB, two accounts (one behind a {@link TcpFaultProxy} whose fault changes every
 * {@code SOAK_FAULT_EVERY_S}, one healthy), mixed buffered and streaming clients, a database freeze
 * ({@code SIGSTOP} of mariadbd) of {@code SOAK_FREEZE_S} every {@code SOAK_FREEZE_EVERY_MIN}, and one
 * SIGTERM + restart half-way. It reports requests answered vs request events logged (every answered
 * request id must be in the log), heap and threads over time, and success latency p99 in and out of freezes.
 * The same test-kit parts the ITs use (fake upstream, fault proxy, process harness): one of each.
 */
public final class Soak {
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final String KEY_MODEL = "soak-model";

    private final Duration length = Duration.ofMinutes(env("SOAK_MINUTES", 30));
    private final int clients = (int) env("SOAK_CLIENTS", 8);
    private final Duration faultEvery = Duration.ofSeconds(env("SOAK_FAULT_EVERY_S", 30));
    private final Duration freezeEvery = Duration.ofMinutes(env("SOAK_FREEZE_EVERY_MIN", 5));
    private final Duration freezeFor = Duration.ofSeconds(env("SOAK_FREEZE_S", 20));
    private final Path report = Path.of(System.getenv().getOrDefault("SOAK_REPORT", "target/soak-results.md"));

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Set<String> answeredIds = ConcurrentHashMap.newKeySet();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong refusedConnection = new AtomicLong();
    /** Answers that carry no x-detour-request-id (so never reached the relay), by status. */
    private final Map<Integer, AtomicLong> withoutId = new ConcurrentHashMap<>();
    private final List<long[]> latencies = Collections.synchronizedList(new ArrayList<>()); // {nanos, inFreeze}
    private final List<String> samples = Collections.synchronizedList(new ArrayList<>());
    private final List<String> timeline = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean frozen;
    private volatile boolean running = true;
    private volatile String base;
    private volatile String key;
    private final long start = System.nanoTime();

    public static void main(String[] args) throws Exception {
        new Soak().run();
    }

    private void run() throws Exception {
        try (FakeUpstream healthy = FakeUpstream.start().handler(FakeUpstream.standaloneHandler(20, Duration.ofMillis(20)));
                FakeUpstream behindProxy = FakeUpstream.start()
                        .handler(FakeUpstream.standaloneHandler(20, Duration.ofMillis(20)));
                TcpFaultProxy proxy = TcpFaultProxy.to(behindProxy)) {
            DetourProcess detour = DetourProcess.start("soak", Map.of("DETOUR_SHUTDOWN_GRACE_SECONDS", "30"));
            try {
                follow(detour);
                provision(proxy, healthy);
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < clients; i++) {
                    boolean streaming = i % 2 == 1;
                    Thread t = new Thread(() -> client(streaming), "soak-client-" + i);
                    t.start();
                    threads.add(t);
                }
                detour = drive(detour, proxy);
                running = false;
                for (Thread t : threads) {
                    t.join(Duration.ofMinutes(2).toMillis());
                }
                proxy.healthy();
                proxy.release();
                thawIfFrozen(detour);
                write(detour);
            } finally {
                detour.close();
            }
        }
    }

    /** The scenario's clock: faults, freezes, one SIGTERM + restart, samples every 10 s. */
    private DetourProcess drive(DetourProcess detour, TcpFaultProxy proxy) throws Exception {
        List<Fault> faults = List.of(Fault.NONE, Fault.reset(), Fault.truncateMidBody(40), Fault.stallMidBody(60),
                Fault.drip(16, Duration.ofMillis(50)), Fault.resetMidBody(120), Fault.stallBeforeHeaders());
        Instant end = Instant.now().plus(length);
        Instant nextFault = Instant.now().plus(faultEvery);
        Instant nextFreeze = Instant.now().plus(freezeEvery);
        Instant restartAt = Instant.now().plus(length.dividedBy(2));
        boolean restarted = false;
        int faultIndex = 0;
        Instant nextSample = Instant.now();
        while (Instant.now().isBefore(end)) {
            Instant now = Instant.now();
            if (!now.isBefore(nextSample)) {
                sample(detour);
                nextSample = now.plusSeconds(10);
            }
            if (!now.isBefore(nextFault)) {
                faultIndex = (faultIndex + 1) % faults.size();
                proxy.release();
                proxy.fault(faults.get(faultIndex));
                mark("fault → " + faults.get(faultIndex));
                nextFault = now.plus(faultEvery);
            }
            if (!now.isBefore(nextFreeze)) {
                long mariadbd = mariadbd(detour);
                mark("database frozen (SIGSTOP " + mariadbd + ") for " + freezeFor.toSeconds() + " s");
                signal("STOP", mariadbd);
                frozen = true;
                Thread.sleep(freezeFor.toMillis()); // the fault itself lasts this long; no assertion on time
                signal("CONT", mariadbd);
                frozen = false;
                mark("database thawed");
                nextFreeze = Instant.now().plus(freezeEvery);
            }
            if (!restarted && !now.isBefore(restartAt)) {
                mark("SIGTERM");
                detour.sigterm();
                int exit = detour.awaitExit(Duration.ofMinutes(2));
                mark("exited " + exit + "; restarting on the same data");
                detour = detour.restart();
                follow(detour);
                mark("ready again on port " + detour.port());
                restarted = true;
            }
            Thread.sleep(200);
        }
        return detour;
    }

    private void client(boolean streaming) {
        String body = "{\"model\":\"" + KEY_MODEL + "\",\"stream\":" + streaming
                + ",\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        while (running) {
            sent.incrementAndGet();
            boolean inFreeze = frozen;
            long t0 = System.nanoTime();
            try {
                HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                        .timeout(Duration.ofSeconds(120)).header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
                response.headers().firstValue("x-detour-request-id").ifPresentOrElse(answeredIds::add,
                        () -> withoutId.computeIfAbsent(response.statusCode(), k -> new AtomicLong()).incrementAndGet());
                answered.incrementAndGet();
                boolean whole;
                try (InputStream in = response.body()) {
                    byte[] all = in.readAllBytes();
                    whole = !streaming || new String(all, StandardCharsets.UTF_8).contains("data: [DONE]");
                } catch (IOException cut) {
                    whole = false; // a broken stream: visible to the client, as it must be
                }
                if (response.statusCode() == 200 && whole) {
                    succeeded.incrementAndGet();
                    latencies.add(new long[] {System.nanoTime() - t0, inFreeze || frozen ? 1 : 0});
                }
            } catch (IOException e) {
                refusedConnection.incrementAndGet(); // e.g. during the restart: never answered, so never owed an event
                pause(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void provision(TcpFaultProxy proxy, FakeUpstream healthy) throws Exception {
        admin("PUT", "/admin/api/settings", "{\"read_timeout_seconds\":5}");
        admin("POST", "/admin/api/groups", "{\"name\":\"soak\",\"ratio_ppm\":1000000}");
        admin("POST", "/admin/api/accounts", account("faulty", proxy.url(), 0));
        admin("POST", "/admin/api/accounts", account("healthy", healthy.url(), 1));
        String created = admin("POST", "/admin/api/keys", "{\"name\":\"soak\"}");
        Matcher m = Pattern.compile("\"key\"\\s*:\\s*\"(dtr-[^\"]+)\"").matcher(created);
        if (!m.find()) {
            throw new IllegalStateException("no key in " + created);
        }
        key = m.group(1);
    }

    private static String account(String name, String url, int priority) {
        return "{\"name\":\"" + name + "\",\"group\":\"soak\",\"platform\":\"openai\",\"base_url\":\"" + url
                + "\",\"api_key\":\"sk-soak-" + name + "-0001\",\"model_mappings\":[{\"from\":\"" + KEY_MODEL
                + "\",\"to\":\"" + KEY_MODEL + "\"}],\"priority\":" + priority + ",\"weight\":10,\"enabled\":true}";
    }

    private String admin(String method, String path, String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Authorization", "Bearer " + dev.detour.testkit.TestApp.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(method + " " + path + " → " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    private void follow(DetourProcess detour) {
        base = detour.url();
    }

    private static long mariadbd(DetourProcess detour) {
        return ProcessHandle.of(detour.pid()).orElseThrow().descendants()
                .filter(p -> p.info().command().orElse("").endsWith("mariadbd")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no mariadbd under Detour " + detour.pid())).pid();
    }

    private void thawIfFrozen(DetourProcess detour) throws Exception {
        if (frozen) {
            signal("CONT", mariadbd(detour));
            frozen = false;
        }
    }

    private static void signal(String name, long pid) throws Exception {
        new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start().waitFor();
    }

    /** Heap in use (jcmd GC.heap_info), resident set and threads (/proc) of the Detour JVM. */
    private void sample(DetourProcess detour) {
        long pid = detour.pid();
        String heap = "?";
        try {
            Process jcmd = new ProcessBuilder(Path.of(ProcessHandle.current().info().command().orElseThrow())
                    .resolveSibling("jcmd").toString(), Long.toString(pid), "GC.heap_info").redirectErrorStream(true)
                    .start();
            String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Matcher m = HEAP_USED.matcher(out);
            if (m.find()) {
                heap = Long.parseLong(m.group(1)) / 1024 + " MiB";
            }
        } catch (IOException | RuntimeException e) {
            heap = "n/a";
        }
        String rss = "?";
        String threads = "?";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = Long.parseLong(line.replaceAll("\\D", "")) / 1024 + " MiB";
                } else if (line.startsWith("Threads:")) {
                    threads = line.replaceAll("\\D", "");
                }
            }
        } catch (IOException | RuntimeException e) {
            rss = "n/a";
        }
        samples.add("| " + elapsed() + " | " + heap + " | " + rss + " | " + threads + " | " + answered.get() + " |");
    }

    private void mark(String what) {
        String line = elapsed() + "  " + what;
        timeline.add(line);
        System.out.println("soak " + line);
    }

    private String elapsed() {
        long s = Duration.ofNanos(System.nanoTime() - start).toSeconds();
        return String.format("%02d:%02d", s / 60, s % 60);
    }

    private void write(DetourProcess detour) throws Exception {
        long missing;
        Set<String> logged = new HashSet<>();
        long events;
        // the writer drains after the load stops: wait (bounded) until the log has stopped growing
        long before = -1;
        for (int i = 0; i < 60; i++) {
            long now = detour.number("SELECT COUNT(*) FROM request_events");
            if (now == before) {
                break;
            }
            before = now;
            Thread.sleep(2000);
        }
        try (Connection c = detour.sql();
                PreparedStatement s = c.prepareStatement("SELECT request_id FROM request_events");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                logged.add(rs.getString(1));
            }
        }
        events = detour.number("SELECT COUNT(*) FROM request_events");
        long distinct = detour.number("SELECT COUNT(DISTINCT request_id) FROM request_events");
        missing = answeredIds.stream().filter(id -> !logged.contains(id)).count();
        List<String> out = new ArrayList<>();
        out.add("# Soak run (" + Instant.now() + ")");
        out.add("");
        out.add(length.toMinutes() + " min, " + clients + " clients (half streaming), fault every "
                + faultEvery.toSeconds() + " s, database freeze " + freezeFor.toSeconds() + " s every "
                + freezeEvery.toMinutes() + " min, one SIGTERM + restart half-way; Java "
                + Runtime.version() + ".");
        out.add("");
        out.add("| figure | value |");
        out.add("|---|---|");
        out.add("| requests sent | " + sent.get() + " |");
        out.add("| answered (got a status line) | " + answered.get() + " |");
        out.add("| not answered (connection refused/reset, e.g. during the restart) | " + refusedConnection.get() + " |");
        out.add("| answered without a request id (never reached the relay), by status | " + withoutId + " |");
        out.add("| whole successes | " + succeeded.get() + " |");
        out.add("| request events logged | " + events + " (distinct request ids " + distinct + ") |");
        out.add("| answered requests missing from the log | **" + missing + "** |");
        out.add("| success p50 / p99 outside freezes | " + percentile(0, 50) + " / " + percentile(0, 99) + " |");
        out.add("| success p50 / p99 during freezes | " + percentile(1, 50) + " / " + percentile(1, 99) + " |");
        out.add("");
        out.add("| t | heap used | RSS | threads | answered so far |");
        out.add("|---|---|---|---|---|");
        out.addAll(samples);
        out.add("");
        out.add("Timeline:");
        out.add("");
        timeline.forEach(t -> out.add("    " + t));
        Files.createDirectories(report.toAbsolutePath().getParent());
        Files.write(report, out);
        out.forEach(System.out::println);
        if (missing > 0) {
            System.exit(1);
        }
    }

    private String percentile(int inFreeze, int p) {
        List<Long> values = new ArrayList<>();
        synchronized (latencies) {
            for (long[] l : latencies) {
                if (l[1] == inFreeze) {
                    values.add(l[0]);
                }
            }
        }
        if (values.isEmpty()) {
            return "–";
        }
        Collections.sort(values);
        long v = values.get(Math.min(values.size() - 1, (int) Math.ceil(p / 100.0 * values.size()) - 1));
        return String.format("%.1f ms", v / 1e6) + " (n=" + values.size() + ")";
    }

    private static long env(String name, long fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : Long.parseLong(v.trim());
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
