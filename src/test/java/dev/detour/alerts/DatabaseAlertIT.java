package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.config.DetourConfig;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.DatabaseFaults;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-1 / D-1 against a real mariadbd of this test's own, stopped under the running App: the
 * {@code database.unavailable} alert reaches a real HTTP receiver while the database is away (sent from
 * memory), and lands in the delivery log once the database is back.
 */
class DatabaseAlertIT {
    private static final Path DATA = Path.of("target/it-alerts-outage-data");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private DatabaseFaults db;
    private App app;
    private AlertReceiver receiver;

    @BeforeEach
    void start() throws IOException {
        if (Files.exists(DATA)) { // a journal of an earlier run must not replay into this fresh database
            try (var walk = Files.walk(DATA)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        db = DatabaseFaults.startFresh("it-alerts-outage-db");
        app = App.start(DetourConfig.defaults(DATA, 0).withDatabase(db.jdbcUrl(), db.user(), db.password())
                .withSecrets(TestApp.MASTER_KEY, TestApp.ADMIN_PASSWORD, TestApp.ADMIN_TOKEN)
                .withAlertPrivateTargets(true), clock);
        app.alerts().stopLoop();
        receiver = AlertReceiver.start();
    }

    @AfterEach
    void stop() {
        try {
            if (app != null) {
                app.close();
            }
        } finally {
            db.close();
            receiver.close();
        }
    }

    @Test
    void aStoppedDatabaseIsAnAlertAtTheReceiverAndInTheDeliveryLogOnceItIsBack() {
        JsonNode channel = admin("POST", "/alerts/channels", "{\"name\":\"ops\",\"kind\":\"webhook\",\"url\":\""
                + receiver.url("/ops") + "\",\"events\":[\"database.unavailable\"]}");
        assertTrue(channel.has("id"), channel.toString());
        app.alerts().tick(clock.instant()); // the channel is read while the database answers

        db.stop();
        Gateway.await(() -> !app.databaseHealth().available(), "the outage noticed");
        clock.advance(Duration.ofSeconds(1));
        app.alerts().tick(clock.instant());

        List<AlertReceiver.Received> got = receiver.at("/ops");
        assertEquals(1, got.size(), got.toString());
        JsonNode alert = Gateway.read(got.get(0).body());
        assertEquals("database.unavailable", alert.path("event").asText());
        assertEquals("database", alert.path("object").asText());
        assertEquals(1, app.alerts().dispatcher().unwritten(), "kept in memory while nothing can be stored");
        app.alerts().tick(clock.instant().plusSeconds(1));
        assertEquals(1, receiver.at("/ops").size(), "once per outage");

        db.start();
        Gateway.await(() -> app.databaseHealth().available(), "the database back");
        app.alerts().tick(clock.instant());
        assertEquals(0, app.alerts().dispatcher().unwritten());
        JsonNode items = admin("GET", "/alerts/deliveries", null).path("items");
        assertEquals(1, items.size(), items.toString());
        assertEquals("database.unavailable", items.get(0).path("event").asText());
        assertEquals("sent", items.get(0).path("status").asText());
        assertEquals(1, receiver.at("/ops").size(), "written back, not sent again");
    }

    private JsonNode admin(String method, String path, String body) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + app.port() + "/admin/api" + path)).timeout(Duration.ofSeconds(10))
                    .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body == null ? "" : body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return Gateway.read(response.body().isEmpty() ? "{}" : response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
