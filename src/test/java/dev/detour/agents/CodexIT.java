package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.AgentProcess;
import dev.detour.testkit.AgentProcess.Run;
import dev.detour.testkit.AgentUpstream;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Codex CLI (npm @openai/codex, pinned) as {@code codex exec} against the fake upstream directly and
 * through Detour, over the Responses API. Its provider lives in a config.toml in a fresh CODEX_HOME:
 * a custom provider whose base_url is the target's /v1, {@code wire_api = "responses"}, the key from an
 * env variable, small retry budgets; update checks, analytics and feedback off (no internet here).
 */
class CodexIT extends AgentCase {
    static final String ANSWER = "The fake upstream says hello to Codex.";
    static final int REQUEST_RETRIES = 2;
    static final int STREAM_RETRIES = 2;

    static Run codex(String baseUrl, String key, String model, Path workdir, String prompt, String... rootConfig) {
        Path home = AgentProcess.freshHome("codex");
        Path codexHome = home.resolve(".codex");
        try {
            Files.createDirectories(codexHome);
            Files.writeString(codexHome.resolve("config.toml"), String.join("\n",
                    "model = \"" + model + "\"",
                    "model_provider = \"detour\"",
                    "check_for_update_on_startup = false",
                    String.join("\n", rootConfig),
                    "",
                    "[model_providers.detour]",
                    "name = \"Detour under test\"",
                    "base_url = \"" + baseUrl + "/v1\"",
                    "env_key = \"DETOUR_API_KEY\"",
                    "wire_api = \"responses\"",
                    "request_max_retries = " + REQUEST_RETRIES,
                    "stream_max_retries = " + STREAM_RETRIES,
                    "stream_idle_timeout_ms = 20000",
                    "",
                    "[analytics]",
                    "enabled = false",
                    "",
                    "[feedback]",
                    "enabled = false",
                    ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = List.of(AgentProcess.bin("codex").toString(), "exec", "--skip-git-repo-check",
                "--color", "never", prompt);
        return AgentProcess.run(command, home, workdir == null ? home : workdir,
                Map.of("CODEX_HOME", codexHome.toString(), "DETOUR_API_KEY", key));
    }

    static Run codexDirect(FakeUpstream fake, String model, String prompt) {
        return codex(fake.url(), "sk-direct-0000", model, null, prompt);
    }

    /** {@code rootConfig}: more top-level config.toml lines, e.g. {@code web_search = "disabled"}. */
    static Run codexViaDetour(String model, String prompt, String... rootConfig) {
        return codex(gw.base(), gw.key(), model, null, prompt, rootConfig);
    }

    static List<RecordedRequest> responsesCalls(FakeUpstream fake) {
        return fake.requests().stream().filter(r -> r.path().startsWith("/v1/responses")).toList();
    }

    @Test
    void aPlainQuestionIsAnsweredTheSameDirectAndThroughDetour() {
        String model = uniqueModel("gpt-5.6-codex-");
        FakeUpstream fake = upstream().handler(AgentUpstream.answering(ANSWER));
        account("openai", fake, model, 0);

        Run direct = codexDirect(fake, model, "Say hello.");
        Run detour = codexViaDetour(model, "Say hello.");
        AgentProcess.record("codex", "plain answer", direct.summary(), detour.summary());

        for (Run run : List.of(direct, detour)) {
            assertEquals(0, run.exit(), run.summary());
            assertTrue(run.stdout().contains(ANSWER), run.summary());
        }
    }

    /**
     * Codex 0.171 offers one top-level tool, {@code exec} (JavaScript in an isolate that composes the
     * nested tools); a script that only calls {@code text(...)} runs in any sandbox, so the round trip
     * needs no shell: the call, Codex running it, its output going back, the final answer.
     */
    @Test
    void aToolCallRoundTripRunsTheToolAndTheAnswerFollowsItsOutput() {
        // a model Codex has metadata for: with its fallback metadata (unknown names) it offers no exec tool
        String model = "gpt-5.6-sol";
        FakeUpstream fake = upstream().handler(toolRoundTrip());
        account("openai", fake, model, 0);

        List<String> outcomes = new ArrayList<>();
        for (boolean viaDetour : new boolean[] {false, true}) {
            int before = responsesCalls(fake).size();
            Run run = viaDetour ? codexViaDetour(model, "TOOLTEST: compute with the tool.")
                    : codexDirect(fake, model, "TOOLTEST: compute with the tool.");
            outcomes.add(run.summary());

            assertEquals(0, run.exit(), run.summary());
            assertTrue(run.stdout().contains("The tool said codex-tool-42."), run.summary());
            List<RecordedRequest> calls = responsesCalls(fake).subList(before, responsesCalls(fake).size());
            assertTrue(calls.stream().anyMatch(r -> r.body().contains(TOOL_OUTPUT)
                    && r.body().contains("codex-tool-42")), () -> "the tool's output went back upstream; calls: " + calls.stream()
                    .map(r -> r.headers() + " tooltest=" + r.body().contains("TOOLTEST") + " output="
                            + r.body().contains(TOOL_OUTPUT) + " len=" + r.body().length()).toList());
        }
        AgentProcess.record("codex", "tool round trip (exec)", outcomes.get(0), outcomes.get(1));
    }

    /** The item Codex sends back; the bare word also appears in the exec tool's description. */
    private static final String TOOL_OUTPUT = "\"type\":\"custom_tool_call_output\"";

    private static Function<RecordedRequest, Reply> toolRoundTrip() {
        var plain = AgentUpstream.answering("The tool said codex-tool-42.");
        return request -> {
            if (request.path().startsWith("/v1/responses") && request.body().contains("TOOLTEST")
                    && !request.body().contains(TOOL_OUTPUT)) {
                return Reply.sseEvents(AgentUpstream.responsesCustomToolCall("call_fake_1", "exec",
                        "text(\"codex-tool-\" + (6 * 7))"));
            }
            return plain.apply(request);
        };
    }

    @ParameterizedTest(name = "first account answers {0}")
    @ValueSource(ints = {429, 529})
    void whenTheFirstAccountIsLimitedOrOverloadedTheHealthyOneServes(int status) {
        String model = uniqueModel("gpt-5.6-codex-");
        Reply refusal = status == 429 ? AgentUpstream.openAiRateLimited(1)
                : Reply.openAiError(529, "The server is overloaded", "overloaded");
        FakeUpstream limited = upstream().handler(r -> refusal);
        FakeUpstream healthy = upstream().handler(AgentUpstream.answering(ANSWER));
        account("openai", limited, model, 0);
        account("openai", healthy, model, 1);
        FakeUpstream once = upstream().enqueue(refusal).handler(AgentUpstream.answering(ANSWER));

        Run direct = codexDirect(once, model, "Say hello.");
        Run detour = codexViaDetour(model, "Say hello.");
        AgentProcess.record("codex", "first " + status + " then healthy", direct.summary(), detour.summary());

        for (Run run : List.of(direct, detour)) {
            assertEquals(0, run.exit(), run.summary());
            assertTrue(run.stdout().contains(ANSWER), run.summary());
        }
        assertFalse(responsesCalls(limited).isEmpty(), "the first account was tried");
        assertFalse(responsesCalls(healthy).isEmpty(), "the healthy account served");
    }

    @Test
    void aStreamCutMidwayIsNeverPrintedAsACompleteAnswer() {
        String model = uniqueModel("gpt-5.6-codex-");
        FakeUpstream fake = upstream().handler(r -> r.path().startsWith("/v1/responses")
                ? Reply.sseThenCut(AgentUpstream.responsesTextUntilCut("PARTIAL-CUT-ANSWER-9 ", "more "))
                : AgentUpstream.answering(ANSWER).apply(r));
        account("openai", fake, model, 0);

        Run direct = codexDirect(fake, model, "Say hello.");
        int directCalls = responsesCalls(fake).size();
        Run detour = codexViaDetour(model, "Say hello.");
        int detourCalls = responsesCalls(fake).size() - directCalls;
        AgentProcess.record("codex", "stream cut mid-way", directCalls + " calls, " + direct.summary(),
                detourCalls + " upstream calls, " + detour.summary());

        assertNoRunTookTheCutAnswerAsComplete("PARTIAL-CUT-ANSWER-9", direct, detour);
    }

    @Test
    void whenEveryRouteIsRateLimitedTheCliReportsARateLimitAndStopsWithinItsRetryBudget() {
        String model = uniqueModel("gpt-5.6-codex-");
        FakeUpstream first = upstream().handler(r -> AgentUpstream.openAiRateLimited(2));
        FakeUpstream second = upstream().handler(r -> AgentUpstream.openAiRateLimited(2));
        account("openai", first, model, 0);
        account("openai", second, model, 1);
        FakeUpstream limitedDirect = upstream().handler(r -> AgentUpstream.openAiRateLimited(2));

        Run direct = codexDirect(limitedDirect, model, "Say hello.");
        Run[] detour = new Run[1];
        long viaDetour = requestsReachingDetour(() -> detour[0] = codexViaDetour(model, "Say hello."));
        int directRequests = responsesCalls(limitedDirect).size();
        AgentProcess.record("codex", "every route rate-limited", directRequests + " requests, " + direct.summary(),
                viaDetour + " requests, " + detour[0].summary());

        for (Run run : List.of(direct, detour[0])) {
            assertFalse(run.timedOut(), run.summary());
            assertTrue(run.exit() != 0, run.summary());
            assertTrue(run.stderr().contains("429"), "the CLI reports the rate limit: " + run.summary());
        }
        assertTrue(viaDetour <= directRequests, () -> "through Detour no more requests than directly (" + directRequests
                + "), saw " + viaDetour);
    }

    /**
     * Codex 0.171 gives up on a 404 at once only when {@code error.code} is {@code model_not_found} (probed:
     * 2 requests with that code, 6 with {@code route_pool.model_unmatched} or null under the same retry
     * settings); any other 404 it retries as a broken turn. So Detour's OpenAI-shape 404 for an unmapped
     * model carries OpenAI's code, with Detour's own in {@code detour_code}.
     */
    @Test
    void anUnmappedModelFailsAtOnceWithOneRequest() {
        String model = uniqueModel("gpt-5.6-codex-unmapped-");
        FakeUpstream fake = upstream().handler(r -> Reply.openAiError(404,
                "The model `" + model + "` does not exist or you do not have access to it.", "model_not_found"));
        account("openai", fake, uniqueModel("gpt-5.6-codex-"), 0); // the pool serves something else

        Run direct = codexDirect(fake, model, "Say hello.");
        int directRequests = responsesCalls(fake).size();
        Run[] detour = new Run[1];
        long viaDetour = requestsReachingDetour(() -> detour[0] = codexViaDetour(model, "Say hello."));
        AgentProcess.record("codex", "unmapped model", directRequests + " requests, " + direct.summary(),
                viaDetour + " requests, " + detour[0].summary());

        for (Run run : List.of(direct, detour[0])) {
            assertFalse(run.timedOut(), run.summary());
            assertTrue(run.exit() != 0, run.summary());
        }
        assertEquals(directRequests, viaDetour, "through Detour the CLI gives up as soon as it does directly");
        assertEquals(directRequests, responsesCalls(fake).size(), "Detour called no upstream for an unmapped model");
    }
}
