package dev.detour.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.Gateway;
import dev.detour.testkit.KeepAliveClient;
import dev.detour.testkit.KeepAliveClient.Answer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A request refused before Detour read its body (a wrong key, an unknown endpoint, a wrong admin token) over a
 * kept-alive connection, whose body is still arriving when Detour decides: the client's next request on that
 * connection is answered (the refused body was read and dropped), or the refusal said {@code Connection: close}
 * (a body too big to read for nothing). Before, Jetty closed such a connection after an answer that had
 * promised to keep it, and the client's next request read nothing (a flaky AuthThrottleIT in CI: "HTTP/1.1
 * header parser received no bytes").
 */
class UnreadBodyIT {
    private static final byte[] BODY = ("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
            + "x".repeat(2_000) + "\"}]}").getBytes(StandardCharsets.UTF_8);
    private Gateway gw;

    @BeforeEach
    void start() {
        gw = Gateway.start();
    }

    @AfterEach
    void stop() {
        gw.close();
    }

    /** Sends the head and half the body, then the rest: Detour may decide in between. */
    private static Answer refusedWhileTheBodyArrives(KeepAliveClient connection, String path, String key)
            throws Exception {
        int half = BODY.length / 2;
        connection.begin("POST", path, key, BODY.length, Arrays.copyOfRange(BODY, 0, half));
        connection.more(Arrays.copyOfRange(BODY, half, BODY.length));
        return connection.answer();
    }

    @Test
    void aWrongKeysConnectionServesTheNextRequest() throws Exception {
        try (KeepAliveClient connection = KeepAliveClient.open(gw.app.port())) {
            Answer refused = refusedWhileTheBodyArrives(connection, "/v1/chat/completions", "dtr-wrong-key");
            assertEquals(401, refused.status());
            assertNull(refused.header("connection"), "the connection is kept: " + refused.headers());
            Answer next = connection.send("GET", "/v1/models", gw.key(), null);
            assertEquals(200, next.status(), "the next request on the same connection: " + next.body());
        }
    }

    @Test
    void anUnknownEndpointsConnectionServesTheNextRequest() throws Exception {
        try (KeepAliveClient connection = KeepAliveClient.open(gw.app.port())) {
            Answer refused = refusedWhileTheBodyArrives(connection, "/v1/no-such-endpoint", gw.key());
            assertEquals(404, refused.status());
            assertNull(refused.header("connection"), refused.headers().toString());
            assertEquals(200, connection.send("GET", "/v1/models", gw.key(), null).status());
        }
    }

    @Test
    void aWrongAdminTokensConnectionServesTheNextRequest() throws Exception {
        try (KeepAliveClient connection = KeepAliveClient.open(gw.app.port())) {
            Answer refused = refusedWhileTheBodyArrives(connection, "/admin/api/groups", "wrong-admin-token");
            assertEquals(401, refused.status());
            assertNull(refused.header("connection"), refused.headers().toString());
            assertEquals(401, connection.send("GET", "/admin/api/groups", "wrong-again", null).status(),
                    "answered on the same connection");
        }
    }

    @Test
    void aBodyTooBigToReadForNothingIsRefusedWithConnectionClose() throws Exception {
        try (KeepAliveClient connection = KeepAliveClient.open(gw.app.port())) {
            int declared = UnreadBody.DISCARD_MAX + 1;
            connection.begin("POST", "/v1/chat/completions", "dtr-wrong-key", declared,
                    Arrays.copyOfRange(BODY, 0, 100));
            Answer refused = connection.answer();
            assertEquals(401, refused.status());
            assertEquals("close", refused.header("connection"), "the client knows not to reuse it");
            assertTrue(connection.closedByServer());
        }
    }

    @Test
    void aWholeBodyRefusedIsNotReadTwice() throws Exception {
        try (KeepAliveClient connection = KeepAliveClient.open(gw.app.port())) {
            Answer refused = connection.send("POST", "/v1/chat/completions", "dtr-wrong-key",
                    new String(BODY, StandardCharsets.UTF_8));
            assertEquals(401, refused.status());
            assertFalse(refused.headers().containsKey("connection"));
            assertEquals(200, connection.send("GET", "/v1/models", gw.key(), null).status());
        }
    }
}
