package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.proxy.Relay;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.fake.Bodies;
import dev.detour.testkit.DetourProcess;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * D-2 and D-5 with the built jar as a real process and a real {@code kill -9} (SIGKILL, then its mariadbd,
 * as systemd does): every request whose client received an answer is in the request log after the restart,
 * and a stream open at the kill is broken for its client and logged as {@code detour.interrupted}.
 */
class CrashJournalProcessIT {
    private static final String MODEL = "gpt-crash";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void afterKillNineUnderTrafficEveryAnsweredRequestIsInTheRequestLogOnce() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.start()) {
            upstream.handler(r -> Reply.chatCompletion());
            DetourProcess detour = DetourProcess.start("it-kill9", Map.of());
            DetourProcess restarted = null;
            try {
                String key = pool(detour, upstream);
                List<String> answered = Collections.synchronizedList(new ArrayList<>());
                AtomicBoolean killed = new AtomicBoolean();
                List<Thread> clients = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    Thread client = new Thread(() -> {
                        while (!killed.get()) {
                            try {
                                HttpResponse<String> response = http.send(chat(detour, key, false),
                                        HttpResponse.BodyHandlers.ofString());
                                if (response.statusCode() == 200 && response.body().contains("chat.completion")) {
                                    answered.add(response.headers().firstValue(Relay.REQUEST_ID_HEADER)
                                            .orElseThrow());
                                }
                            } catch (IOException cut) {
                                // the process died under this request: its client got no answer
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    });
                    client.start();
                    clients.add(client);
                }
                Gateway.await(() -> answered.size() >= 300, "300 answered requests before the kill");
                detour.sigkill();
                killed.set(true);
                for (Thread client : clients) {
                    client.join(TimeUnit.SECONDS.toMillis(30));
                }
                assertNotEquals(0, detour.awaitExit(Duration.ofSeconds(30)), "killed, not exited");
                List<String> answers = List.copyOf(answered);

                restarted = detour.restart();
                DetourProcess after = restarted;
                try {
                    Gateway.await(() -> countIn(after, answers) == answers.size(), "every answered request logged");
                } catch (AssertionError missing) {
                    throw new AssertionError(countIn(after, answers) + " of the " + answers.size()
                            + " answered requests are in the request log after the restart", missing);
                }
                assertEquals(answers.size(), after.number("SELECT COUNT(DISTINCT request_id) FROM request_events"
                        + " WHERE request_id IN (" + quoted(answers) + ")"));
                long interrupted = after.number("SELECT COUNT(*) FROM request_events WHERE error_code = '"
                        + RequestEvent.INTERRUPTED + "'");
                long all = after.number("SELECT COUNT(*) FROM request_events");
                System.out.println("D-2 kill -9: " + answers.size() + " answered before the kill, " + all
                        + " events after the restart, " + interrupted + " of them logged as interrupted");
            } finally {
                detour.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    @Test
    void aStreamOpenAtKillNineIsBrokenForItsClientAndLoggedAsInterruptedAfterTheRestart() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        try (FakeUpstream upstream = FakeUpstream.start()) {
            Reply held = Reply.stallAfterFirstFrame(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("hi"),
                    Bodies.chatStopChunk())).releasedBy(never);
            upstream.handler(r -> r.wantsStream() ? held : Reply.chatCompletion());
            DetourProcess detour = DetourProcess.start("it-kill9-stream", Map.of());
            DetourProcess restarted = null;
            try {
                String key = pool(detour, upstream);
                long account = detour.number("SELECT MIN(id) FROM accounts");
                HttpResponse<InputStream> response = http.send(chat(detour, key, true),
                        HttpResponse.BodyHandlers.ofInputStream());
                String requestId = response.headers().firstValue(Relay.REQUEST_ID_HEADER).orElseThrow();
                BufferedReader body = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
                String first = body.readLine();
                assertTrue(first != null && first.startsWith("data: "), "the first frame arrived: " + first);

                detour.sigkill();
                StringBuilder rest = new StringBuilder();
                boolean broken = false;
                try {
                    for (String line = body.readLine(); line != null; line = body.readLine()) {
                        rest.append(line).append('\n');
                    }
                } catch (IOException e) {
                    broken = true; // the chunked body ended without its last chunk
                }
                assertTrue(broken, "the client sees the stream broken, not ended: " + rest);
                assertFalse(rest.toString().contains("[DONE]"), "no terminal marker");
                detour.awaitExit(Duration.ofSeconds(30));

                restarted = detour.restart();
                DetourProcess after = restarted;
                Gateway.await(() -> countIn(after, List.of(requestId)) == 1, "the cut stream's event after restart");
                assertEquals(List.of("failure", "200", RequestEvent.INTERRUPTED, Long.toString(account), "1"),
                        row(after, "SELECT outcome, status, error_code, account_id, stream FROM request_events"
                                + " WHERE request_id = '" + requestId + "'"));
                JsonNode logged = adminGet(after, "/requests/" + requestId);
                assertEquals(RequestEvent.INTERRUPTED, logged.path("error_code").asText(), logged.toString());
            } finally {
                never.countDown();
                detour.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    /** A group, one account on the fake upstream and a Detour key, through the admin API; returns the key. */
    private String pool(DetourProcess detour, FakeUpstream upstream) throws Exception {
        admin(detour, "POST", "/groups", "{\"name\":\"default\"}");
        JsonNode account = admin(detour, "POST", "/accounts", "{\"name\":\"a\",\"group\":\"default\",\"platform\":"
                + "\"openai-compatible\",\"base_url\":\"" + upstream.url() + "\",\"api_key\":\"sk-test-crash-secret\","
                + "\"model_mappings\":[{\"from\":\"" + MODEL + "\",\"to\":\"" + MODEL + "\"}]}");
        assertTrue(account.has("id"), account.toString());
        String key = admin(detour, "POST", "/keys", "{\"name\":\"crash-key\"}").path("key").asText();
        // the snapshot picks the new pool up within its refresh interval
        Gateway.await(() -> {
            try {
                HttpRequest probe = HttpRequest.newBuilder(chat(detour, key, false), (n, v) -> true)
                        .timeout(Duration.ofSeconds(10)).build();
                return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        }, "the new pool serves");
        return key;
    }

    private HttpRequest chat(DetourProcess detour, String key, boolean stream) {
        return HttpRequest.newBuilder(URI.create(detour.url() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .build();
    }

    private JsonNode admin(DetourProcess detour, String method, String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(detour.url() + "/admin/api" + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        return Gateway.read(response.body());
    }

    private JsonNode adminGet(DetourProcess detour, String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(detour.url() + "/admin/api" + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        return Gateway.read(response.body());
    }

    private static long countIn(DetourProcess detour, List<String> requestIds) {
        try {
            return detour.number("SELECT COUNT(*) FROM request_events WHERE request_id IN (" + quoted(requestIds) + ")");
        } catch (SQLException e) {
            return -1; // not answering yet
        }
    }

    private static String quoted(List<String> ids) {
        return String.join(", ", ids.stream().map(id -> "'" + id.replace("'", "") + "'").toList());
    }

    private static List<String> row(DetourProcess detour, String query) throws SQLException {
        try (Connection c = detour.sql(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(query)) {
            assertTrue(r.next(), "no row: " + query);
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= r.getMetaData().getColumnCount(); i++) {
                values.add(r.getString(i));
            }
            return values;
        }
    }
}
