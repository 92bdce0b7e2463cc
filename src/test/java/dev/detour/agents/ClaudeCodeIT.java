package dev.detour.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.AgentProcess;
import dev.detour.testkit.AgentProcess.Run;
import dev.detour.testkit.AgentUpstream;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Claude Code (npm @anthropic-ai/claude-code, pinned in src/test/agents/package.json) in print mode
 * ({@code claude -p}) against the fake upstream directly and through Detour: the same scenario both
 * ways, so what Detour changes is what the test sees. No internet: base URL on loopback, telemetry,
 * auto-update and non-essential traffic off, a fresh HOME per run.
 */
class ClaudeCodeIT extends AgentCase {
    static final String ANSWER = "The fake upstream says hello to Claude Code.";
    /** Retries per request: the CLI's budget (default 10, with backoff) cut so a failing case ends in seconds. */
    static final int MAX_RETRIES = 2;

    static Run claude(String baseUrl, String apiKey, String model, Path workdir, String prompt, String... flags) {
        Path home = AgentProcess.freshHome("claude");
        List<String> command = new ArrayList<>(List.of(AgentProcess.bin("claude").toString(), "-p", prompt,
                "--model", model));
        command.addAll(List.of(flags));
        Map<String, String> env = Map.ofEntries(Map.entry("ANTHROPIC_BASE_URL", baseUrl),
                Map.entry("ANTHROPIC_API_KEY", apiKey),
                Map.entry("ANTHROPIC_DEFAULT_HAIKU_MODEL", model), Map.entry("ANTHROPIC_SMALL_FAST_MODEL", model),
                Map.entry("DISABLE_TELEMETRY", "1"), Map.entry("DISABLE_AUTOUPDATER", "1"),
                Map.entry("DISABLE_ERROR_REPORTING", "1"), Map.entry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
                Map.entry("CLAUDE_CODE_MAX_RETRIES", String.valueOf(MAX_RETRIES)),
                Map.entry("CLAUDE_CONFIG_DIR", home.resolve(".claude").toString()));
        return AgentProcess.run(command, home, workdir == null ? home : workdir, env);
    }

    static Run claudeDirect(FakeUpstream fake, String model, Path workdir, String prompt, String... flags) {
        return claude(fake.url(), "sk-ant-direct-0000", model, workdir, prompt, flags);
    }

    static Run claudeViaDetour(String model, Path workdir, String prompt, String... flags) {
        return claude(gw.base(), gw.key(), model, workdir, prompt, flags);
    }

    private static List<RecordedRequest> messageCalls(FakeUpstream fake) {
        return fake.requests().stream().filter(r -> r.path().startsWith("/v1/messages")).toList();
    }

    @Test
    void aPlainQuestionIsAnsweredTheSameDirectAndThroughDetour() {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream fake = upstream().handler(AgentUpstream.answering(ANSWER));
        account("anthropic", fake, model, 0);

        Run direct = claudeDirect(fake, model, null, "Say hello.");
        Run detour = claudeViaDetour(model, null, "Say hello.");
        AgentProcess.record("claude", "plain answer", direct.summary(), detour.summary());

        assertEquals(0, direct.exit(), direct.summary());
        assertTrue(direct.stdout().contains(ANSWER), direct.summary());
        assertEquals(0, detour.exit(), detour.summary());
        assertTrue(detour.stdout().contains(ANSWER), detour.summary());
    }

    @Test
    void aToolCallRoundTripReadsTheFileAndTheAnswerFollowsTheToolResult() throws IOException {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream fake = upstream().handler(toolRoundTrip(model));
        account("anthropic", fake, model, 0);

        List<String> outcomes = new ArrayList<>();
        for (boolean viaDetour : new boolean[] {false, true}) {
            Path workdir = AgentProcess.freshHome("claude-tool-work");
            Path note = workdir.resolve("note.txt");
            Files.writeString(note, "detour-tool-secret-7731\n");
            String prompt = "TOOLTEST: read " + note + " and tell me what it says.";
            Run run = viaDetour ? claudeViaDetour(model, workdir, prompt, "--allowedTools", "Read")
                    : claudeDirect(fake, model, workdir, prompt, "--allowedTools", "Read");
            outcomes.add(run.summary());

            assertEquals(0, run.exit(), run.summary());
            assertTrue(run.stdout().contains("The note says what the tool read."), run.summary());
            RecordedRequest followUp = messageCalls(fake).stream().filter(r -> r.body().contains("\"tool_result\""))
                    .reduce((first, second) -> second).orElseThrow(() -> new AssertionError("no tool_result sent"));
            assertTrue(followUp.body().contains("detour-tool-secret-7731"), "the Read tool's output went back upstream");
            fake.handler(toolRoundTrip(model)); // keeps the same script for the second run
        }
        AgentProcess.record("claude", "tool round trip (Read)", outcomes.get(0), outcomes.get(1));
    }

    /** First the main turn asks for Read on the path in the prompt; once a tool_result arrives, a text answer. */
    private static java.util.function.Function<RecordedRequest, Reply> toolRoundTrip(String model) {
        var plain = AgentUpstream.answering("The note says what the tool read.");
        return request -> {
            String body = request.body();
            if (request.path().startsWith("/v1/messages?") || request.path().equals("/v1/messages")) {
                if (body.contains("TOOLTEST") && !body.contains("\"tool_result\"") && request.wantsStream()) {
                    java.util.regex.Matcher path = java.util.regex.Pattern.compile("read (/[^ ]+note\\.txt)").matcher(body);
                    String file = path.find() ? path.group(1) : "note.txt";
                    return Reply.sseEvents(AgentUpstream.messagesToolUse(model, "toolu_fake_1", "Read",
                            "{\"file_path\":\"" + file + "\"}"));
                }
            }
            return plain.apply(request);
        };
    }

    @ParameterizedTest(name = "first account answers {0}")
    @ValueSource(ints = {429, 529})
    void whenTheFirstAccountIsLimitedOrOverloadedTheHealthyOneServes(int status) {
        String model = uniqueModel("claude-sonnet-4-5-");
        Reply refusal = status == 429 ? AgentUpstream.anthropicRateLimited(1) : AgentUpstream.anthropicOverloaded();
        FakeUpstream limited = upstream().handler(r -> refusal);
        FakeUpstream healthy = upstream().handler(AgentUpstream.answering(ANSWER));
        account("anthropic", limited, model, 0);
        account("anthropic", healthy, model, 1);
        // direct: one upstream that refuses once, then answers (what the CLI's own retry sees)
        FakeUpstream once = upstream().enqueue(refusal).handler(AgentUpstream.answering(ANSWER));

        Run direct = claudeDirect(once, model, null, "Say hello.");
        Run detour = claudeViaDetour(model, null, "Say hello.");
        AgentProcess.record("claude", "first " + status + " then healthy", direct.summary(), detour.summary());

        assertEquals(0, direct.exit(), direct.summary());
        assertTrue(direct.stdout().contains(ANSWER), direct.summary());
        assertEquals(0, detour.exit(), detour.summary());
        assertTrue(detour.stdout().contains(ANSWER), detour.summary());
        assertFalse(messageCalls(limited).isEmpty(), "the first account was tried");
        assertFalse(messageCalls(healthy).isEmpty(), "the healthy account served");
    }

    @Test
    void aStreamCutMidwayIsNeverPrintedAsACompleteAnswer() {
        String model = uniqueModel("claude-sonnet-4-5-");
        String partial = "PARTIAL-CUT-ANSWER-9 ";
        // every stream is cut after a text delta; a non-stream fallback (if the CLI makes one) is answered
        var answering = AgentUpstream.answering("Recovered after the cut.");
        FakeUpstream fake = upstream().handler(r -> r.path().startsWith("/v1/messages") && !r.path().contains("count_tokens")
                && r.wantsStream() ? Reply.sseThenCut(AgentUpstream.messagesTextUntilCut(model, partial, "more "))
                : answering.apply(r));
        account("anthropic", fake, model, 0);

        Run direct = claudeDirect(fake, model, null, "Say hello.");
        Run detour = claudeViaDetour(model, null, "Say hello.");
        AgentProcess.record("claude", "stream cut mid-way", direct.summary(), detour.summary());

        assertNoRunTookTheCutAnswerAsComplete("PARTIAL-CUT-ANSWER-9", direct, detour);
    }

    @Test
    void whenEveryRouteIsRateLimitedTheCliReportsARateLimitAndStopsWithinItsRetryBudget() {
        String model = uniqueModel("claude-sonnet-4-5-");
        FakeUpstream first = upstream().handler(r -> AgentUpstream.anthropicRateLimited(2));
        FakeUpstream second = upstream().handler(r -> AgentUpstream.anthropicRateLimited(2));
        account("anthropic", first, model, 0);
        account("anthropic", second, model, 1);
        FakeUpstream limitedDirect = upstream().handler(r -> AgentUpstream.anthropicRateLimited(2));

        Run direct = claudeDirect(limitedDirect, model, null, "Say hello.");
        Run[] detour = new Run[1];
        long viaDetour = requestsReachingDetour(() -> detour[0] = claudeViaDetour(model, null, "Say hello."));
        AgentProcess.record("claude", "every route rate-limited", messageCalls(limitedDirect).size() + " requests, "
                + direct.summary(), viaDetour + " requests, " + detour[0].summary());

        for (Run run : List.of(direct, detour[0])) {
            assertReportsFailure(run);
            assertTrue(java.util.regex.Pattern.compile("429|rate.?limit", java.util.regex.Pattern.CASE_INSENSITIVE)
                    .matcher(run.stdout()).find(),
                    "the CLI says it was rate-limited: " + run.summary());
        }
        assertTrue(messageCalls(limitedDirect).size() <= MAX_RETRIES + 1, "direct: within the retry budget");
        assertTrue(viaDetour <= MAX_RETRIES + 1, "through Detour: within the retry budget, saw " + viaDetour);
    }

    @Test
    void anUnmappedModelFailsAtOnceWithOneRequest() {
        String model = uniqueModel("claude-sonnet-4-5-unmapped-");
        FakeUpstream fake = upstream().handler(r -> AgentUpstream.anthropicError(404, "not_found_error",
                "model: " + model));
        account("anthropic", fake, uniqueModel("claude-sonnet-4-5-"), 0); // the pool serves something else

        Run direct = claudeDirect(fake, model, null, "Say hello.");
        int directRequests = messageCalls(fake).size();
        Run[] detour = new Run[1];
        long viaDetour = requestsReachingDetour(() -> detour[0] = claudeViaDetour(model, null, "Say hello."));
        AgentProcess.record("claude", "unmapped model", directRequests + " requests, " + direct.summary(),
                viaDetour + " requests, " + detour[0].summary());

        assertReportsFailure(direct);
        assertReportsFailure(detour[0]);
        assertEquals(directRequests, viaDetour, "through Detour the CLI gives up as soon as it does directly");
        assertEquals(directRequests, messageCalls(fake).size(), "Detour called no upstream for an unmapped model");
    }

    static void assertReportsFailure(Run run) {
        assertFalse(run.timedOut(), run.summary());
        assertNotEquals(0, run.exit(), run.summary());
    }
}
