package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.AgentProcess;
import dev.detour.testkit.AgentProcess.Run;
import dev.detour.testkit.AgentUpstream;
import dev.detour.testkit.Gateway;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * B-6: the real agents served by an account that does not speak their protocol, through the bridge, with the
 * fake upstream answering in its own protocol only: Claude Code (Messages) by a Chat-only relay, Codex CLI
 * (Responses, its tools grouped in namespaces, {@code exec} a custom tool) by a Chat-only relay and by an
 * Anthropic account — a plain answer and a tool-call round trip, streamed as the agents ask — and each agent's
 * failover from a failing native account to a bridged one in the same tier.
 */
class BridgedAgentsIT extends AgentCase {
    /** Codex offers its exec tool only for a model it has metadata for, so those tests share this name. */
    private static final String CODEX_TOOL_MODEL = "gpt-5.6-sol";
    /**
     * For a model it has no metadata for, Codex 0.171 also declares OpenAI's web_search tool (cached mode),
     * which no other provider can run: the bridge refuses it (bridge.unsupported.builtin_tool). Codex's own
     * setting turns it off.
     */
    private static final String NO_WEB_SEARCH = "web_search = \"disabled\"";
    private static final String CHAT_ONLY = "{\"platform\":\"openai-compatible\",\"protocols\":[\"chat_completions\"]}";
    private static final String ANTHROPIC = "{\"platform\":\"anthropic\"}";
    private final List<Long> accounts = new ArrayList<>();

    /** Accounts of a shared model name are switched off after their test, so the next test's serve it alone. */
    @AfterEach
    void disableAccounts() {
        accounts.forEach(id -> gw.admin("PUT", "/accounts/" + id, "{\"enabled\":false}"));
    }

    private long account(FakeUpstream fake, String model, String settings) {
        long id = gw.account("bridged-" + model + "-" + fake.port(), fake,
                "[{\"from\":\"" + model + "\",\"to\":\"" + model + "\"}]", settings);
        accounts.add(id);
        return id;
    }

    private static List<String> paths(FakeUpstream fake) {
        return fake.requests().stream().map(RecordedRequest::path).filter(p -> !p.startsWith("/v1/models")).toList();
    }

    /** The newest answered event of the model: its attempt went through the bridge between the two protocols. */
    private static void assertBridged(String model, String from, String to) {
        JsonNode event = lastAnswered(model, e -> true);
        JsonNode attempt = event.path("attempts").get(event.path("attempts").size() - 1);
        assertEquals(from, attempt.path("bridged_from").asText(), event.toString());
        assertEquals(to, attempt.path("bridged_to").asText(), event.toString());
    }

    /**
     * The newest answered event of the model that {@code which} accepts, once it is written: the agent may exit
     * before its last request's event is stored (the writer gathers a batch for 20 ms), and this class's gateway
     * has written events of earlier cases, so its count says nothing about this one.
     */
    private static JsonNode lastAnswered(String model, Predicate<JsonNode> which) {
        JsonNode[] found = new JsonNode[1];
        Gateway.await(() -> {
            for (JsonNode e : gw.events(1)) {
                if (model.equals(e.path("model").asText()) && e.path("status").asInt() == 200 && which.test(e)) {
                    found[0] = e;
                }
            }
            return found[0] != null;
        }, "an answered event of " + model);
        return found[0];
    }

    /**
     * The failover as the explanation tells it: an answered event whose first attempt was on the native
     * account (not bridged) and failed with {@code failedStatus}, and whose last, answered attempt was on the
     * bridged account between the two protocols.
     */
    private static void assertFailedOverToBridged(String model, long nativeAccount, int failedStatus, long bridged,
            String from, String to) {
        JsonNode event = lastAnswered(model, e -> e.path("attempts").size() > 1);
        JsonNode attempts = event.path("attempts");
        JsonNode first = attempts.get(0);
        assertEquals(nativeAccount, first.path("account_id").asLong(), event.toString());
        assertEquals(failedStatus, first.path("status").asInt(), event.toString());
        assertTrue(first.path("bridged_to").isNull(), "the native attempt went through no bridge: " + event);
        JsonNode last = attempts.get(attempts.size() - 1);
        assertEquals(bridged, last.path("account_id").asLong(), event.toString());
        assertEquals(200, last.path("status").asInt(), event.toString());
        assertEquals(from, last.path("bridged_from").asText(), event.toString());
        assertEquals(to, last.path("bridged_to").asText(), event.toString());
        assertEquals(bridged, event.path("account_id").asLong(), event.toString());
    }

    @Test
    void claudeCodeIsServedByAChatOnlyRelayThroughTheBridge() {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream relay = upstream().handler(AgentUpstream.answering(ClaudeCodeIT.ANSWER));
        account(relay, model, CHAT_ONLY);

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
        account(relay, model, CHAT_ONLY);
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

    @Test
    void claudeCodeFailsOverFromAnOverloadedAnthropicAccountToAChatOnlyRelayInTheSameTier() {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream official = upstream().handler(r -> AgentUpstream.anthropicOverloaded());
        FakeUpstream relay = upstream().handler(AgentUpstream.answering(ClaudeCodeIT.ANSWER));
        long nativeAccount = account(official, model, ANTHROPIC);
        long bridged = account(relay, model, CHAT_ONLY);

        Run run = ClaudeCodeIT.claudeViaDetour(model, null, "Say hello.");
        AgentProcess.record("claude", "native Anthropic 529, then a Chat-only relay (bridged)", "-", run.summary());

        assertEquals(0, run.exit(), run.summary());
        assertTrue(run.stdout().contains(ClaudeCodeIT.ANSWER), run.summary());
        assertTrue(paths(official).stream().anyMatch(p -> p.startsWith("/v1/messages")), "the native account was asked");
        assertTrue(paths(relay).stream().allMatch(p -> p.startsWith("/v1/chat/completions")), paths(relay).toString());
        assertFailedOverToBridged(model, nativeAccount, 529, bridged, "messages", "chat_completions");
    }

    @ParameterizedTest(name = "served by {0}")
    @ValueSource(strings = {"chat_completions", "messages"})
    void codexIsServedThroughTheBridgeAndItsAnswerStreams(String protocol) {
        String model = uniqueModel("gpt-5.6-codex-");
        FakeUpstream upstream = upstream().handler(AgentUpstream.answering(CodexIT.ANSWER));
        account(upstream, model, protocol.equals("messages") ? ANTHROPIC : CHAT_ONLY);

        Run refused = CodexIT.codexViaDetour(model, "Say hello.");
        AgentProcess.record("codex", "web_search declared, " + protocol + " only (refused)", "-", refused.summary());
        assertTrue(refused.exit() != 0 && refused.stderr().contains("bridge.unsupported.builtin_tool")
                && refused.stderr().contains("web_search"), "web_search is refused, never dropped: " + refused.summary());
        assertTrue(paths(upstream).isEmpty(), "refused before dispatch: " + paths(upstream));

        Run run = CodexIT.codexViaDetour(model, "Say hello.", NO_WEB_SEARCH);
        AgentProcess.record("codex", "plain answer through " + protocol + " (bridged)", "-", run.summary());

        assertEquals(0, run.exit(), run.summary());
        assertTrue(run.stdout().contains(CodexIT.ANSWER), run.summary());
        List<RecordedRequest> calls = upstream.requests().stream()
                .filter(r -> !r.path().startsWith("/v1/models")).toList();
        assertFalse(calls.isEmpty(), "the upstream was asked");
        for (RecordedRequest call : calls) {
            assertEquals(protocol.equals("messages") ? "/v1/messages" : "/v1/chat/completions", call.path());
            JsonNode body = Gateway.read(call.body());
            assertTrue(body.path("messages").isArray(), "the upstream's own request shape: " + call.body());
            assertTrue(body.path("stream").asBoolean(), "Codex streams, so the upstream is asked to stream");
            assertTrue(body.path("tools").isArray() && body.path("tools").size() > 0, "Codex's tools went up");
            body.path("tools").forEach(t -> assertTrue((protocol.equals("messages") ? t.path("name")
                    : t.path("function").path("name")).asText().matches("[a-zA-Z0-9_-]{1,64}"), t.toString()));
        }
        assertBridged(model, "responses", protocol);
    }

    /**
     * Codex's {@code exec} is a custom tool in its {@code functions} namespace: the upstream calls it as a plain
     * function, Codex gets a {@code custom_tool_call} it runs, and its {@code custom_tool_call_output} reaches
     * the upstream as the tool result of that call in the upstream's own protocol.
     */
    @ParameterizedTest(name = "served by {0}")
    @ValueSource(strings = {"chat_completions", "messages"})
    void codexsCustomToolRoundTripWorksThroughTheBridge(String protocol) {
        boolean messages = protocol.equals("messages");
        FakeUpstream upstream = upstream().handler(messages ? messagesToolRoundTrip() : chatExecRoundTrip());
        account(upstream, CODEX_TOOL_MODEL, messages ? ANTHROPIC : CHAT_ONLY);

        Run run = CodexIT.codexViaDetour(CODEX_TOOL_MODEL, "TOOLTEST: compute with the tool.");
        AgentProcess.record("codex", "tool round trip (exec) through " + protocol + " (bridged)", "-", run.summary());

        assertEquals(0, run.exit(), run.summary());
        assertTrue(run.stdout().contains("The tool said codex-tool-42."), run.summary());
        String result = messages ? "\"tool_result\"" : "\"role\":\"tool\"";
        RecordedRequest followUp = upstream.requests().stream().filter(r -> r.body().contains(result))
                .reduce((first, second) -> second).orElseThrow(() -> new AssertionError("no tool result sent up"));
        assertEquals(messages ? "/v1/messages" : "/v1/chat/completions", followUp.path());
        assertTrue(followUp.body().contains("codex-tool-42"), "the exec tool's output went back upstream");
        assertTrue(followUp.body().contains(messages ? "toolu_fake_1" : "call_fake_1"), "with the id of its call");
        assertBridged(CODEX_TOOL_MODEL, "responses", protocol);
    }

    @Test
    void codexFailsOverFromAFailingResponsesAccountToAnAnthropicAccountInTheSameTier() {
        String model = uniqueModel("gpt-5.6-codex-");
        FakeUpstream failing = upstream().handler(r -> Reply.openAiError(500, "The server had an error", "server_error"));
        FakeUpstream anthropic = upstream().handler(AgentUpstream.answering(CodexIT.ANSWER));
        long nativeAccount = account(failing, model, "{\"platform\":\"openai\"}");
        long bridged = account(anthropic, model, ANTHROPIC);

        Run run = CodexIT.codexViaDetour(model, "Say hello.", NO_WEB_SEARCH);
        AgentProcess.record("codex", "native Responses 500, then an Anthropic account (bridged)", "-", run.summary());

        assertEquals(0, run.exit(), run.summary());
        assertTrue(run.stdout().contains(CodexIT.ANSWER), run.summary());
        assertTrue(paths(failing).stream().anyMatch(p -> p.startsWith("/v1/responses")), "the native account was asked");
        assertTrue(paths(anthropic).stream().allMatch(p -> p.startsWith("/v1/messages")), paths(anthropic).toString());
        assertFailedOverToBridged(model, nativeAccount, 500, bridged, "responses", "messages");
    }

    /** A Chat relay: the turn naming TOOLTEST calls exec (streamed), with the JavaScript as the input parameter. */
    private static Function<RecordedRequest, Reply> chatExecRoundTrip() {
        var plain = AgentUpstream.answering("The tool said codex-tool-42.");
        return request -> {
            String body = request.body();
            if (request.path().startsWith("/v1/chat/completions") && body.contains("TOOLTEST")
                    && !body.contains("\"role\":\"tool\"")) {
                return chatToolCall("exec", EXEC_ARGUMENTS);
            }
            return plain.apply(request);
        };
    }

    /** An Anthropic upstream: the turn naming TOOLTEST calls exec as a tool_use block, streamed. */
    private static Function<RecordedRequest, Reply> messagesToolRoundTrip() {
        var plain = AgentUpstream.answering("The tool said codex-tool-42.");
        return request -> {
            String body = request.body();
            if (request.path().startsWith("/v1/messages") && body.contains("TOOLTEST")
                    && !body.contains("\"tool_result\"")) {
                return Reply.sseEvents(AgentUpstream.messagesToolUse(request.model(), "toolu_fake_1", "exec",
                        EXEC_ARGUMENTS));
            }
            return plain.apply(request);
        };
    }

    /** The exec tool's JavaScript, in the one string parameter its function stands for. */
    private static final String EXEC_ARGUMENTS = "{\"input\":" + Bodies.quote("text(\"codex-tool-\" + (6 * 7))") + "}";

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
                return chatToolCall("Read", args);
            }
            return plain.apply(request);
        };
    }

    /** A streamed Chat answer whose one choice calls {@code tool} (id call_fake_1), its arguments in one delta. */
    private static Reply chatToolCall(String tool, String arguments) {
        return Reply.sse(List.of(Bodies.chatRoleChunk(),
                AgentUpstream.chatChunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_fake_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":" + Bodies.quote(tool) + ",\"arguments\":\"\"}}]}", "null"),
                AgentUpstream.chatChunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
                        + Bodies.quote(arguments) + "}}]}", "null"),
                AgentUpstream.chatChunk("{}", "\"tool_calls\"")));
    }
}
