package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.AgentProcess;
import dev.detour.testkit.AgentProcess.Run;
import dev.detour.testkit.AgentUpstream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * B-6: the real agents served by an account that does not speak their protocol, through the bridge, with the
 * fake upstream answering in its own protocol only: Claude Code (Messages) by a Chat-only relay, a plain answer
 * and a tool-call round trip. Codex CLI
 * (Responses) is not here yet: every request it sends declares OpenAI built-in tools, which the bridge refuses
 * ({@code bridge.unsupported.builtin_tool}) rather than drop.
 */
class BridgedAgentsIT extends AgentCase {
    private static long account(FakeUpstream fake, String model, String settings) {
        return gw.account("bridged-" + model + "-" + fake.port(), fake,
                "[{\"from\":\"" + model + "\",\"to\":\"" + model + "\"}]", settings);
    }

    private static List<String> paths(FakeUpstream fake) {
        return fake.requests().stream().map(RecordedRequest::path).filter(p -> !p.startsWith("/v1/models")).toList();
    }

    /** The newest answered event of the model: its attempt went through the bridge between the two protocols. */
    private static void assertBridged(String model, String from, String to) {
        JsonNode event = null;
        for (JsonNode e : gw.events(1)) {
            if (model.equals(e.path("model").asText()) && e.path("status").asInt() == 200) {
                event = e;
            }
        }
        assertTrue(event != null, "an answered event of " + model);
        JsonNode attempt = event.path("attempts").get(event.path("attempts").size() - 1);
        assertEquals(from, attempt.path("bridged_from").asText(), event.toString());
        assertEquals(to, attempt.path("bridged_to").asText(), event.toString());
    }

    @Test
    void claudeCodeIsServedByAChatOnlyRelayThroughTheBridge() {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream relay = upstream().handler(AgentUpstream.answering(ClaudeCodeIT.ANSWER));
        account(relay, model, "{\"platform\":\"openai-compatible\",\"protocols\":[\"chat_completions\"]}");

        Run run = ClaudeCodeIT.claudeViaDetour(model, null, "Say hello.");
        AgentProcess.record("claude", "plain answer through a Chat-only relay (bridged)", "-", run.summary());

        assertEquals(0, run.exit(), run.summary());
        assertTrue(run.stdout().contains(ClaudeCodeIT.ANSWER), run.summary());
        assertTrue(paths(relay).stream().allMatch(p -> p.startsWith("/v1/chat/completions")), paths(relay).toString());
        assertBridged(model, "messages", "chat_completions");
    }

    @Test
    void claudeCodesToolCallRoundTripWorksThroughAChatOnlyRelay() throws IOException {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream relay = upstream().handler(chatToolRoundTrip());
        account(relay, model, "{\"platform\":\"openai-compatible\",\"protocols\":[\"chat_completions\"]}");
        Path workdir = AgentProcess.freshHome("claude-bridged-tool-work");
        Path note = workdir.resolve("note.txt");
        Files.writeString(note, "detour-bridged-secret-4411\n");

        Run run = ClaudeCodeIT.claudeViaDetour(model, workdir, "TOOLTEST: read " + note + " and tell me what it says.",
                "--allowedTools", "Read");
        AgentProcess.record("claude", "tool round trip (Read) through a Chat-only relay (bridged)", "-", run.summary());

        assertEquals(0, run.exit(), run.summary());
        assertTrue(run.stdout().contains("The note says what the tool read."), run.summary());
        RecordedRequest followUp = relay.requests().stream().filter(r -> r.body().contains("\"role\":\"tool\""))
                .reduce((first, second) -> second).orElseThrow(() -> new AssertionError("no tool result sent as Chat"));
        assertTrue(followUp.body().contains("detour-bridged-secret-4411"), "the Read tool's output went back upstream");
        assertTrue(followUp.body().contains("call_fake_1"), "with the id of the call it answers");
    }

    /** A Chat upstream: the turn naming TOOLTEST asks for Read (a streamed tool call); once the tool result is back, text. */
    private static Function<RecordedRequest, Reply> chatToolRoundTrip() {
        var plain = AgentUpstream.answering("The note says what the tool read.");
        return request -> {
            String body = request.body();
            if (request.path().startsWith("/v1/chat/completions") && body.contains("TOOLTEST")
                    && !body.contains("\"role\":\"tool\"") && request.wantsStream()) {
                Matcher path = Pattern.compile("read (/[^ ]+note\\.txt)").matcher(body);
                String file = path.find() ? path.group(1) : "note.txt";
                String args = "{\"file_path\":\"" + file + "\"}";
                return Reply.sse(List.of(Bodies.chatRoleChunk(),
                        AgentUpstream.chatChunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_fake_1\",\"type\":\"function\","
                                + "\"function\":{\"name\":\"Read\",\"arguments\":\"\"}}]}", "null"),
                        AgentUpstream.chatChunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
                                + Bodies.quote(args) + "}}]}", "null"),
                        AgentUpstream.chatChunk("{}", "\"tool_calls\"")));
            }
            return plain.apply(request);
        };
    }
}
