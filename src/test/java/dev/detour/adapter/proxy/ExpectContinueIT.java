package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that waits to be asked for its body ({@code Expect: 100-continue}: curl with a long context, an
 * HTTP library set to) is asked when the relay reads the body, and answered; one refused before that is never
 * asked, and its connection closes (the body it holds back would otherwise be read as the next request).
 */
class ExpectContinueIT {
    private static final String BODY = "{\"model\":\"gpt-x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        gw.account("a", upstream, "[{\"from\":\"gpt-x\",\"to\":\"gpt-x\"}]", "{}");
        upstream.handler(r -> Reply.chatCompletion());
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    private Socket asks(String key, OutputStream[] out) throws IOException {
        Socket socket = new Socket("127.0.0.1", gw.app.port());
        out[0] = socket.getOutputStream();
        out[0].write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length()
                + "\r\nExpect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out[0].flush();
        return socket;
    }

    /** One answer's head (status line and headers, up to the blank line). */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the connection closed within a head: " + head);
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void aClientWaitingToBeAskedForItsBodyIsAskedAndAnswered() throws Exception {
        OutputStream[] out = new OutputStream[1];
        try (Socket socket = asks(gw.key(), out)) {
            InputStream in = socket.getInputStream();
            String asked = head(in);
            assertTrue(asked.startsWith("HTTP/1.1 100 "), asked);
            out[0].write(BODY.getBytes(StandardCharsets.US_ASCII));
            out[0].flush();
            String answer = head(in);
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
        }
        assertEquals(1, upstream.requestCount());
        assertEquals("success", gw.events(1).get(0).path("outcome").asText());
    }

    @Test
    void aClientRefusedBeforeItsBodyIsReadIsNeverAskedAndItsConnectionCloses() throws Exception {
        OutputStream[] out = new OutputStream[1];
        try (Socket socket = asks("dtr-wrong-key", out)) {
            InputStream in = socket.getInputStream();
            String answer = head(in);
            assertTrue(answer.startsWith("HTTP/1.1 401 "), answer);
            assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
            in.readAllBytes(); // the refusal's body, then the end of the connection
        }
        assertEquals(0, upstream.requestCount());
    }
}
