package dev.detour.galera;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.DetourProcess;
import dev.detour.testkit.Gateway;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * G-2 on Galera behind nginx: {@code max_in_flight} 3 over three live instances (each writing through a
 * different node) holds at the upstream under 100 concurrent clients; one instance killed, the other two
 * take its share once it is past the registry's bound. The upstream counts (the fake's ConcurrencyGauge),
 * not Detour. How long the give-back took is printed, not asserted.
 */
class InFlightShareOnGaleraIT {
    private static final String MODEL = "gpt-shared";
    private static final int LIMIT = 3;
    private static final int CLIENTS = 100;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static GaleraPool pool;
    private static FakeUpstream upstream;
    private static List<DetourProcess> instances;

    @BeforeAll
    static void startInstancesBehindNginx() throws Exception {
        pool = GaleraPool.start("galera-share", "\"max_in_flight\":" + LIMIT + ",", List.of(MODEL));
        upstream = pool.upstream;
        instances = pool.instances;
    }

    @AfterAll
    static void stopAll() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void threeInstancesNeverLetMoreThanTheLimitThroughAndTwoSurvivorsTakeTheKilledOnesShare() throws Exception {
        for (DetourProcess instance : instances) {
            Gateway.await(() -> liveCount(instance) == 3, instance + " counts three live instances");
        }
        JsonNode listed = GaleraPool.admin(instances.get(1), "GET", "/instances", null).path("items");
        assertEquals(3, listed.size(), listed.toString());
        List<String> addresses = new ArrayList<>();
        listed.forEach(i -> {
            assertTrue(i.path("live").asBoolean(), i.toString());
            assertEquals("0.1.0-SNAPSHOT", i.path("version").asText(), "the jar's version");
            addresses.add(i.path("address").asText());
        });
        assertEquals(instances.stream().map(p -> "127.0.0.1:" + p.port()).sorted().toList(),
                addresses.stream().sorted().toList());

        upstream.handler(r -> Reply.chatCompletion().latency(Duration.ofMillis(200)));
        upstream.concurrency().resetHighWater();
        Map<Integer, Integer> throughNginx = load(List.of(pool.nginx.url()));
        int highWater = upstream.concurrency().highWater();
        System.out.println("G-2 max_in_flight " + LIMIT + " over 3 instances, " + CLIENTS
                + " clients through nginx: upstream high water " + highWater + ", answers " + throughNginx);
        assertTrue(highWater <= LIMIT, "never more than the limit at the upstream: " + highWater);
        assertTrue(throughNginx.getOrDefault(200, 0) > 0, throughNginx.toString());

        DetourProcess killed = instances.get(2);
        killed.sigkill();
        long killedAt = System.nanoTime();
        List<DetourProcess> survivors = instances.subList(0, 2);
        for (DetourProcess survivor : survivors) {
            Gateway.await(() -> liveCount(survivor) == 2, survivor + " counts the killed instance gone");
        }
        System.out.println("G-2 share of the SIGKILLed instance taken back by both survivors after "
                + Duration.ofNanos(System.nanoTime() - killedAt).toMillis() + " ms (bound 20 s)");

        upstream.concurrency().resetHighWater();
        Map<Integer, Integer> direct = load(survivors.stream().map(DetourProcess::url).toList());
        int afterKill = upstream.concurrency().highWater();
        System.out.println("G-2 after the kill, " + CLIENTS + " clients on the two survivors: upstream high water "
                + afterKill + ", answers " + direct);
        assertEquals(LIMIT, afterKill, "the survivors' parts (2 + 1) use the whole limit, and no more");
    }

    /** {@value #CLIENTS} clients at once, each sending 3 requests to the bases in turn; answers by status. */
    private static Map<Integer, Integer> load(List<String> bases) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                running.add(clients.submit(() -> {
                    for (int i = 0; i < 3; i++) {
                        int status = pool.status(bases.get((client + i) % bases.size()), MODEL);
                        statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    }
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
        } finally {
            clients.shutdown();
        }
        Map<Integer, Integer> counts = new TreeMap<>();
        statuses.forEach((s, n) -> counts.put(s, n.get()));
        return counts;
    }

    private static int liveCount(DetourProcess instance) {
        try {
            String metrics = HTTP.send(HttpRequest.newBuilder(URI.create(instance.url() + "/metrics"))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
            return metrics.lines().filter(l -> l.startsWith("detour_instances_live ")).findFirst()
                    .map(l -> (int) Double.parseDouble(l.split(" ")[1])).orElse(-1);
        } catch (IOException | InterruptedException e) {
            return -1;
        }
    }
}
