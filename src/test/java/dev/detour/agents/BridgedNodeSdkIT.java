package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import dev.detour.testkit.AgentProcess;
import dev.detour.testkit.AgentProcess.Run;
import dev.detour.testkit.AgentUpstream;
import dev.detour.testkit.Gateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * B-6 with the official Node SDKs (npm openai and @anthropic-ai/sdk, pinned): each served by accounts that do
 * not speak its protocol, through the bridge, the fake upstream answering only in the account's protocol — the
 * openai SDK's Chat Completions and Responses by an Anthropic account, the Anthropic SDK's Messages by a
 * Chat-only and by a Responses-only relay. A buffered answer, a streamed one (read with the SDKs' stream
 * helpers, which rebuild the whole answer from the events and throw on one they cannot place), a tool call
 * round trip, and per SDK a failover from a native account answering 500 to a bridged one. Asserted: what the
 * SDK parsed (text, tool call id and arguments, stop reason, usage), what the upstream received, and the
 * event's bridged attempt. One node process per SDK runs all of its cases (src/test/agents/sdk-bridged.mjs).
 */
class BridgedNodeSdkIT extends AgentCase {
    static final String ANSWER = "Hello from the bridge.";
    static final String AFTER_TOOL = "It is sunny in Paris.";
    static final String ARGUMENTS = "{\"city\":\"Paris\"}";
    static final String TOOL_OUTPUT_MARK = "temperature_c";

    /** One SDK call (kind: a function of sdk-bridged.mjs) served by an account speaking {@code upstream}. */
    record Case(String sdk, String kind, String upstream, boolean failover) {
        String client() {
            return kind.startsWith("chat") ? "chat_completions" : kind.startsWith("responses") ? "responses" : "messages";
        }

        boolean tools() {
            return kind.endsWith("-tools");
        }

        boolean streamed() {
            return kind.endsWith("-stream");
        }

        String id() {
            return sdk + " " + kind + " via " + upstream + (failover ? " after a native 500" : "");
        }

        @Override
        public String toString() {
            return id();
        }
    }

    /** A case's model and upstreams, made when its SDK's run starts. */
    private record Served(String model, FakeUpstream bridged, FakeUpstream nativeAccount) {
    }

    private static final List<Case> CASES = List.of(
            new Case("openai", "chat", "messages", false),
            new Case("openai", "chat-stream", "messages", false),
            new Case("openai", "chat-tools", "messages", false),
            new Case("openai", "responses", "messages", false),
            new Case("openai", "responses-stream", "messages", false),
            new Case("openai", "responses-tools", "messages", false),
            new Case("openai", "chat-stream", "messages", true),
            new Case("anthropic", "messages", "chat_completions", false),
            new Case("anthropic", "messages-stream", "chat_completions", false),
            new Case("anthropic", "messages-tools", "chat_completions", false),
            new Case("anthropic", "messages", "responses", false),
            new Case("anthropic", "messages-stream", "responses", false),
            new Case("anthropic", "messages-tools", "responses", false),
            new Case("anthropic", "messages-stream", "chat_completions", true));

    private static final Map<String, Map<String, JsonNode>> OUTCOMES = new HashMap<>();
    private static final Map<Case, Served> SERVED = new HashMap<>();
    private static final List<FakeUpstream> FAKES = new ArrayList<>();

    static Stream<Case> bridgedCases() {
        return CASES.stream().filter(c -> !c.failover());
    }

    static Stream<Case> failoverCases() {
        return CASES.stream().filter(Case::failover);
    }

    @AfterAll
    static void stopFakes() {
        FAKES.forEach(FakeUpstream::close);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bridgedCases")
    void anOfficialSdkParsesTheBridgedAnswerAsOneOfItsOwnProtocol(Case c) {
        JsonNode out = outcome(c);
        assertParsed(c, out);
        Served served = SERVED.get(c);
        List<RecordedRequest> asked = asked(served.bridged());
        assertEquals(c.tools() ? 2 : 1, asked.size(), paths(asked));
        for (RecordedRequest request : asked) {
            assertAskedInItsOwnProtocol(c.upstream(), request);
        }
        assertEquals(c.streamed() || c.tools(), asked.get(0).wantsStream(), "streamed as the SDK asked");
        if (c.tools()) {
            assertToolRoundTripSent(c.upstream(), Gateway.read(asked.get(1).body()));
        } else if (!c.streamed()) {
            assertTrue(asked.get(0).body().contains("Be brief."), "the system prompt went upstream: " + asked.get(0).body());
        }
        JsonNode attempts = answeredEvent(served.model()).path("attempts");
        assertEquals(1, attempts.size(), attempts.toString());
        JsonNode attempt = attempts.get(0);
        assertEquals(c.client(), attempt.path("bridged_from").asText(), attempt.toString());
        assertEquals(c.upstream(), attempt.path("bridged_to").asText(), attempt.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failoverCases")
    void anSdkIsServedByTheBridgedAccountWhenTheNativeOneAnswers500(Case c) {
        JsonNode out = outcome(c);
        assertParsed(c, out);
        Served served = SERVED.get(c);
        assertEquals(1, asked(served.nativeAccount()).size(), "the native account was asked first");
        List<RecordedRequest> bridged = asked(served.bridged());
        assertEquals(1, bridged.size(), paths(bridged));
        assertAskedInItsOwnProtocol(c.upstream(), bridged.get(0));
        JsonNode attempts = answeredEvent(served.model()).path("attempts");
        assertEquals(2, attempts.size(), attempts.toString());
        assertEquals(500, attempts.get(0).path("status").asInt(), attempts.toString());
        assertTrue(attempts.get(0).path("bridged_to").isNull(), "the first attempt was native: " + attempts);
        assertEquals(c.client(), attempts.get(1).path("bridged_from").asText(), attempts.toString());
        assertEquals(c.upstream(), attempts.get(1).path("bridged_to").asText(), attempts.toString());
    }

    /** What the SDK returned: the text (and the streamed deltas), the tool call, the stop reason and the usage. */
    private static void assertParsed(Case c, JsonNode out) {
        assertEquals("ok", out.path("outcome").asText(), c + ": " + out);
        String text = c.tools() ? AFTER_TOOL : ANSWER;
        assertEquals(text, out.path("text").asText(), out.toString());
        if (c.streamed()) {
            assertEquals(text, out.path("deltas").asText(), "the deltas the SDK handed out: " + out);
        }
        if (c.tools()) {
            JsonNode calls = out.path("calls");
            assertEquals(1, calls.size(), out.toString());
            assertEquals(callId(c.upstream()), calls.get(0).path("id").asText(), "the upstream's call id: " + out);
            assertEquals("get_weather", calls.get(0).path("name").asText(), out.toString());
            assertEquals(Gateway.read(ARGUMENTS), Gateway.read(calls.get(0).path("arguments").asText()), out.toString());
            assertEquals(stop(c.client(), true), out.path("firstStop").asText(), out.toString());
        }
        assertEquals(stop(c.client(), false), out.path("stop").asText(), out.toString());
        assertEquals(12, out.path("usage").path("input").asInt(), "input tokens as the upstream counted: " + out);
        assertEquals(AgentUpstream.words(text).length, out.path("usage").path("output").asInt(),
                "output tokens as the upstream counted: " + out);
    }

    /** The client protocol's stop reason for an answer that ends a turn, or that asks for a tool. */
    private static String stop(String client, boolean toolCall) {
        return switch (client) {
            case "chat_completions" -> toolCall ? "tool_calls" : "stop";
            case "responses" -> "completed";
            default -> toolCall ? "tool_use" : "end_turn";
        };
    }

    /** The id the fake gives its tool call, in the shape each provider uses. */
    private static String callId(String upstream) {
        return switch (upstream) {
            case "messages" -> "toolu_01BridgeWeather";
            case "responses" -> "call_resp_weather_1";
            default -> "call_chat_weather_1";
        };
    }

    private static void assertAskedInItsOwnProtocol(String upstream, RecordedRequest request) {
        String path = switch (upstream) {
            case "messages" -> "/v1/messages";
            case "responses" -> "/v1/responses";
            default -> "/v1/chat/completions";
        };
        assertEquals(path, request.path());
        if (upstream.equals("messages")) {
            assertTrue(request.header("x-api-key").startsWith("sk-test-"), request.headers().toString());
            assertEquals(null, request.header("authorization"), request.headers().toString());
        } else {
            assertTrue(request.header("authorization").startsWith("Bearer sk-test-"), request.headers().toString());
            assertEquals(null, request.header("x-api-key"), request.headers().toString());
        }
    }

    /** The follow-up carries the call (same id, same arguments) and its result, in the upstream's shape. */
    private static void assertToolRoundTripSent(String upstream, JsonNode body) {
        String id = callId(upstream);
        List<JsonNode> call = new ArrayList<>();
        List<JsonNode> result = new ArrayList<>();
        switch (upstream) {
            case "messages" -> body.path("messages").forEach(m -> m.path("content").forEach(block -> {
                if (block.path("type").asText().equals("tool_use") && block.path("id").asText().equals(id)) {
                    call.add(block.path("input"));
                }
                if (block.path("type").asText().equals("tool_result") && block.path("tool_use_id").asText().equals(id)) {
                    result.add(block.path("content"));
                }
            }));
            case "responses" -> body.path("input").forEach(item -> {
                if (item.path("type").asText().equals("function_call") && item.path("call_id").asText().equals(id)) {
                    call.add(Gateway.read(item.path("arguments").asText()));
                }
                if (item.path("type").asText().equals("function_call_output") && item.path("call_id").asText().equals(id)) {
                    result.add(item.path("output"));
                }
            });
            default -> body.path("messages").forEach(m -> {
                m.path("tool_calls").forEach(t -> {
                    if (t.path("id").asText().equals(id)) {
                        call.add(Gateway.read(t.path("function").path("arguments").asText()));
                    }
                });
                if (m.path("role").asText().equals("tool") && m.path("tool_call_id").asText().equals(id)) {
                    result.add(m.path("content"));
                }
            });
        }
        assertEquals(List.of(Gateway.read(ARGUMENTS)), call, "the call went back upstream with its id: " + body);
        assertEquals(1, result.size(), "the tool's result went upstream with the call's id: " + body);
        assertTrue(result.get(0).toString().contains(TOOL_OUTPUT_MARK), body.toString());
    }

    private static List<RecordedRequest> asked(FakeUpstream fake) {
        return fake.requests().stream().filter(r -> !r.path().startsWith("/v1/models")).toList();
    }

    private static String paths(List<RecordedRequest> requests) {
        return requests.stream().map(RecordedRequest::path).toList().toString();
    }

    /** The newest answered event of the model, once it is written. */
    private static JsonNode answeredEvent(String model) {
        JsonNode[] found = new JsonNode[1];
        Gateway.await(() -> {
            for (JsonNode e : gw.events(1)) {
                if (model.equals(e.path("model").asText()) && e.path("status").asInt() == 200) {
                    found[0] = e;
                }
            }
            return found[0] != null;
        }, "an answered event of " + model);
        return found[0];
    }

    /** The SDK's line for this case; the first case of an SDK sets up all of its cases and runs them in one process. */
    private static synchronized JsonNode outcome(Case c) {
        JsonNode out = OUTCOMES.computeIfAbsent(c.sdk(), BridgedNodeSdkIT::runSdk).get(c.id());
        assertTrue(out != null, "sdk-bridged.mjs printed nothing for " + c.id());
        return out;
    }

    private static Map<String, JsonNode> runSdk(String sdk) {
        ArrayNode cases = Gateway.JSON.createArrayNode();
        for (Case c : CASES) {
            if (c.sdk().equals(sdk)) {
                Served served = serve(c);
                SERVED.put(c, served);
                cases.addObject().put("case", c.id()).put("kind", c.kind()).put("baseURL", gw.base())
                        .put("apiKey", gw.key()).put("model", served.model());
            }
        }
        Path home = AgentProcess.freshHome("sdk-bridged-" + sdk);
        Path file = home.resolve("cases.json");
        try {
            Files.writeString(file, cases.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Run run = AgentProcess.run(List.of("node", NodeSdkIT.script("sdk-bridged.mjs").toString(), file.toString()),
                home, home, Map.of());
        assertFalse(run.timedOut(), run.summary());
        Map<String, JsonNode> outcomes = new HashMap<>();
        for (String line : run.stdout().split("\n")) {
            if (line.startsWith("{")) {
                JsonNode out = Gateway.read(line);
                outcomes.put(out.path("case").asText(), out);
                AgentProcess.record(sdk + " SDK (bridged)", out.path("case").asText(), "-", line);
            }
        }
        return outcomes;
    }

    /** A model of its own, the bridged account on a fake speaking only its protocol, and for a failover a native one first. */
    private static Served serve(Case c) {
        String model = uniqueModel(c.sdk().equals("anthropic") ? "claude-sonnet-4-5-" : "gpt-4.1-");
        FakeUpstream bridged = fake().handler(AgentUpstream.callingTool(c.tools() ? AFTER_TOOL : ANSWER,
                callId(c.upstream()), "get_weather", ARGUMENTS));
        String mappings = "[{\"from\":\"" + model + "\",\"to\":\"" + model + "\"}]";
        String speaking = switch (c.upstream()) {
            case "messages" -> "{\"platform\":\"anthropic\"}";
            case "responses" -> "{\"platform\":\"openai-compatible\",\"protocols\":[\"responses\"]}";
            default -> "{\"platform\":\"openai-compatible\",\"protocols\":[\"chat_completions\"]}";
        };
        FakeUpstream nativeAccount = null;
        if (c.failover()) {
            nativeAccount = fake().handler(request -> c.sdk().equals("anthropic")
                    ? AgentUpstream.anthropicError(500, "api_error", "Internal server error")
                    : Reply.openAiError(500, "The server had an error while processing your request",
                            null));
            // no same-account retry: the failover to the next account is what is looked at
            gw.account("native-" + model, nativeAccount, mappings, "{\"platform\":\""
                    + (c.sdk().equals("anthropic") ? "anthropic" : "openai-compatible")
                    + "\",\"failure_policy\":{\"retry_count\":0}}");
        }
        gw.account("bridged-" + model, bridged, mappings, speaking);
        return new Served(model, bridged, nativeAccount);
    }

    private static FakeUpstream fake() {
        FakeUpstream fake = FakeUpstream.start();
        FAKES.add(fake);
        return fake;
    }
}
