package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.selection.CostEma;
import dev.detour.core.selection.ModelStateKey;
import dev.detour.fake.Bodies;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** S-7: the cost an upstream reports in usage feeds the EMA, buffered or streamed, in either protocol. */
class CostLedgerIT extends OneUpstreamCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";
    private CostEma ledger(long accountId) {
        return gw.app.load().rankingInputs().costLedger().get(new ModelStateKey(accountId, "upstream-sol"));
    }

    private static String drain(HttpResponse<InputStream> response) throws IOException {
        try (InputStream in = response.body()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aBufferedUsageCostFeedsTheLedger() {
        long id = gw.account("a", upstream, MAPS, null);
        upstream.enqueue(Reply.json(200, "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],\"usage\":"
                + "{\"prompt_tokens\":600,\"completion_tokens\":400,\"total_tokens\":1000,\"cost\":0.002}}"));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(2000, ledger(id).microsPerKTokens(), "0.002 for 1,000 tokens = 2,000 micros per 1k");
    }

    @Test
    void theFinalUsageChunkOfAnOpenAiStreamFeedsTheLedgerAndAveragesWithTheNext() throws IOException {
        long id = gw.account("a", upstream, MAPS, null);
        String usage = "{\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":"
                + "600,\"completion_tokens\":400,\"total_tokens\":1000,\"prompt_tokens_details\":{\"cached_tokens\":0},"
                + "\"cost\":%s}}";
        String body = "{\"model\":\"gpt-5.6-sol\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        upstream.enqueue(Reply.sse(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("hi"), Bodies.chatStopChunk(),
                String.format(usage, "0.002"))));
        String first = drain(gw.postStreaming("/v1/chat/completions", body));
        assertEquals(true, first.contains("\"cost\":0.002"), "the usage chunk reached the client: " + first);
        assertEquals(2000, ledger(id).microsPerKTokens());

        upstream.enqueue(Reply.sse(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("hi"), Bodies.chatStopChunk(),
                String.format(usage, "0.001"))));
        drain(gw.postStreaming("/v1/chat/completions", body));
        assertEquals(1700, ledger(id).microsPerKTokens(), "EMA α = 0.3: 0.3 × 1,000 + 0.7 × 2,000");
    }

    @Test
    void anAnthropicMessageDeltaUsageCostFeedsTheLedger() throws IOException {
        long id = gw.account("claude", upstream, MAPS, "{\"platform\":\"anthropic\"}");
        upstream.enqueue(Reply.sse(List.of(
                "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                        + "\"content\":[],\"model\":\"upstream-sol\",\"usage\":{\"input_tokens\":300,\"output_tokens\":1}}}",
                "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}",
                "{\"type\":\"content_block_stop\",\"index\":0}",
                "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":200,"
                        + "\"cost\":0.0005}}",
                "{\"type\":\"message_stop\"}")).withoutDone());
        HttpResponse<InputStream> response = gw.postStreaming("/v1/messages", "{\"model\":\"gpt-5.6-sol\","
                + "\"max_tokens\":100,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertEquals(200, response.statusCode());
        drain(response);
        assertEquals(1000, ledger(id).microsPerKTokens(), "0.0005 for 300 + 200 tokens");
    }
}
