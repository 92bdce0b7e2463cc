package dev.detour.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The demo's fake relays: the shared {@link FakeUpstream} on a loopback ephemeral port serving
 * OpenAI-compatible {@code POST /{behaviour}/v1/chat/completions}, buffered or SSE, answering as
 * the path's {@link DemoBehaviour}. Upstream keys must look like {@code sk-demo-…}; nothing real.
 */
public final class DemoUpstream implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT_PATH = "/v1/chat/completions";
    private final FakeUpstream server;
    private final AtomicLong sequence = new AtomicLong();

    private DemoUpstream() {
        this.server = FakeUpstream.start().keepRequests(false).handler(request -> toReply(replyTo(request)));
    }

    public static DemoUpstream start() {
        return new DemoUpstream();
    }

    public int port() {
        return server.port();
    }

    /** The base URL an account uses to reach the relay that behaves as {@code behaviour}. */
    public String url(DemoBehaviour behaviour) {
        return "http://127.0.0.1:" + port() + "/" + behaviour.path();
    }

    private DemoReply replyTo(RecordedRequest request) {
        String path = request.path();
        int slash = path.indexOf('/', 1);
        Optional<DemoBehaviour> behaviour = slash < 0 ? Optional.empty()
                : DemoBehaviour.fromPath(path.substring(1, slash));
        if (behaviour.isEmpty() || !path.substring(slash).equals(CHAT_PATH) || !"POST".equals(request.method())) {
            return DemoReplies.notFound(request.method() + " " + path);
        }
        String auth = request.header("Authorization");
        if (auth == null || !auth.startsWith("Bearer sk-demo-")) {
            return DemoReplies.unauthorized();
        }
        JsonNode body = readJson(request.body());
        String model = body == null ? "" : body.path("model").asText("");
        if (model.isBlank()) {
            return DemoReplies.badRequest("a JSON body with a model is required");
        }
        return DemoReplies.answer(behaviour.get(), model, body.path("stream").asBoolean(false),
                sequence.incrementAndGet());
    }

    private static JsonNode readJson(String text) {
        try {
            JsonNode node = JSON.readTree(text);
            return node != null && node.isObject() ? node : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The demo answer as the fake plays it: the slow relay's wait is its latency before the status line. */
    private static Reply toReply(DemoReply answer) {
        Reply reply = answer.eventStream() ? Reply.rawSse(answer.parts()).withStatus(answer.status())
                : Reply.json(answer.status(), answer.body());
        for (Map.Entry<String, String> header : answer.headers().entrySet()) {
            reply = reply.header(header.getKey(), header.getValue());
        }
        return reply.latency(answer.delay());
    }

    @Override
    public void close() {
        server.close();
    }
}
