package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.AgentProcess;
import dev.detour.testkit.AgentProcess.Run;
import dev.detour.testkit.AgentUpstream;
import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The official Node SDKs (npm openai and @anthropic-ai/sdk, pinned) run one streaming request
 * (src/test/agents/sdk-stream.mjs, no retries) against a scripted upstream directly and through Detour:
 * what the caller gets — the text, or the exception class — must be the same both ways.
 */
class NodeSdkIT extends AgentCase {
    /** A script of src/test/agents, put next to node_modules so its imports resolve; copied fresh so edits count. */
    static Path script(String name) {
        try {
            Path script = AgentProcess.AGENTS.resolve(name);
            Files.copy(Path.of("src/test/agents").resolve(name), script, StandardCopyOption.REPLACE_EXISTING);
            return script;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode sdk(String sdk, String baseUrl, String key, String model) {
        Path home = AgentProcess.freshHome("sdk-" + sdk);
        Run run = AgentProcess.run(List.of("node", script("sdk-stream.mjs").toString(), sdk, baseUrl, key, model), home, home, Map.of());
        assertFalse(run.timedOut(), run.summary());
        String[] lines = run.stdout().strip().split("\n");
        String last = lines[lines.length - 1];
        if (!last.startsWith("{")) {
            throw new AssertionError("the SDK script printed no outcome: " + run.summary());
        }
        return Gateway.read(last);
    }

    /** The scripted upstream answer for one scenario, in the SDK's own protocol. */
    static Reply scenario(String sdk, String name, String model) {
        boolean anthropic = sdk.equals("anthropic");
        return switch (name) {
            case "complete" -> anthropic ? Reply.sseEvents(AgentUpstream.messagesText(model, "Hello ", "world."))
                    : Reply.sse(Bodies.chatStream("Hello ", "world."));
            case "cut" -> Reply.sseThenCut(anthropic ? AgentUpstream.messagesTextUntilCut(model, "PARTIAL ", "answer ")
                    : List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("PARTIAL "), Bodies.chatChunk("answer ")));
            case "midstream-error" -> {
                if (anthropic) {
                    List<String> frames = new ArrayList<>(AgentUpstream.messagesTextUntilCut(model, "PARTIAL "));
                    frames.add(AgentUpstream.messagesErrorEvent("overloaded_error", "Overloaded"));
                    yield Reply.sseEvents(frames);
                }
                yield Reply.sse(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("PARTIAL "),
                        Bodies.openAiError(500, "The server had an error while processing your request", null)))
                        .withoutDone();
            }
            case "429" -> anthropic ? AgentUpstream.anthropicRateLimited(1) : AgentUpstream.openAiRateLimited(1);
            case "529" -> anthropic ? AgentUpstream.anthropicOverloaded()
                    : Reply.openAiError(529, "The server is overloaded", "overloaded");
            default -> throw new IllegalArgumentException(name);
        };
    }

    void assertSameOutcome(String sdk, String name) {
        String model = uniqueModel(sdk.equals("anthropic") ? "claude-sonnet-4-5-" : "gpt-5.6-");
        Reply reply = scenario(sdk, name, model);
        FakeUpstream fake = upstream().handler(r -> reply);
        account(sdk.equals("anthropic") ? "anthropic" : "openai", fake, model, 0);

        JsonNode direct = sdk(sdk, fake.url(), "sk-direct-0000", model);
        JsonNode detour = sdk(sdk, gw.base(), gw.key(), model);
        AgentProcess.record(sdk + " SDK", name, direct.toString(), detour.toString());

        assertEquals(direct.path("outcome").asText(), detour.path("outcome").asText(),
                "direct " + direct + " vs through Detour " + detour);
        assertEquals(direct.path("errorClass").asText(), detour.path("errorClass").asText(),
                "direct " + direct + " vs through Detour " + detour);
        if (direct.path("outcome").asText().equals("ok")) {
            assertEquals(direct.path("text").asText(), detour.path("text").asText());
        }
    }

    @ParameterizedTest(name = "{0} SDK, {1}")
    @CsvSource({"anthropic,complete", "openai,complete", "anthropic,midstream-error", "openai,midstream-error",
            "openai,529"})
    void anSdkSeesTheSameOutcomeDirectAndThroughDetour(String sdk, String name) {
        assertSameOutcome(sdk, name);
    }

    /**
     * Needs the status mapping of Honest answers (P-8': 429 stays 429, overload answers 529/503) and visibly broken
     * streams (F-4': a cut after bytes reached the client aborts the client's stream too). A cut Messages
     * stream is relayed as a cut: with an {@code event: error} frame the Anthropic SDK raised {@code APIError}
     * where the direct cut raises {@code TypeError: terminated}.
     */
    @ParameterizedTest(name = "{0} SDK, {1}")
    @CsvSource({"anthropic,cut", "openai,cut", "anthropic,429", "openai,429", "anthropic,529"})
    void anSdkSeesTheSameFailureDirectAndThroughDetour(String sdk, String name) {
        assertSameOutcome(sdk, name);
    }
}
