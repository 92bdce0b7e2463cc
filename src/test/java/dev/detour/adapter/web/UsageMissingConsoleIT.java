package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.fake.Bodies;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** P-7' in the console: the requests page and a request's page flag a stream whose usage never arrived. */
class UsageMissingConsoleIT extends ConsoleCase {
    private FakeUpstream upstream;

    @AfterEach
    void stopUpstream() {
        upstream.close();
    }

    @Test
    void aStreamCutBeforeItsUsageIsTaggedUsageMissingInTheListAndOnItsPage() throws Exception {
        upstream = FakeUpstream.start();
        gw.account("a", upstream, "[{\"from\":\"gpt-x\",\"to\":\"up-x\"}]", "{\"failure_policy\":{\"retry_count\":0}}");
        upstream.enqueue(Reply.sseThenCut(List.of(Bodies.chatRoleChunk(), Bodies.chatChunk("no usage"))));
        drain("{\"model\":\"gpt-x\",\"stream\":true,\"messages\":[]}");
        upstream.enqueue(Reply.chatCompletion());
        assertEquals(200, gw.chat("gpt-x").statusCode());
        String cut = gw.events(2).get(0).path("id").asText();

        HtmlPage list = web.getPage(gw.base() + "/requests");
        DomElement cutRow = null;
        for (var row : list.querySelectorAll("tr.event")) {
            if (row.getTextContent().contains(cut)) {
                cutRow = (DomElement) row;
            }
        }
        assertNotNull(cutRow, list.asXml());
        DomElement tag = cutRow.querySelector(".tag.usage-missing");
        assertNotNull(tag, cutRow.asXml());
        assertEquals("usage missing", tag.getTextContent().trim());
        assertEquals(1, list.querySelectorAll(".tag.usage-missing").size(), "the buffered answer is not flagged");

        HtmlPage detail = web.getPage(gw.base() + "/requests/" + cut);
        assertNotNull(detail.querySelector("#request-summary .usage .tag.usage-missing"));
        String other = gw.events(2).get(1).path("id").asText();
        assertNull(web.<HtmlPage>getPage(gw.base() + "/requests/" + other).querySelector(".tag.usage-missing"));
    }

    private void drain(String body) throws IOException {
        try (InputStream in = gw.postStreaming("/v1/chat/completions", body).body()) {
            in.readAllBytes();
        } catch (IOException e) {
            // F-4': the cut chat stream is aborted; its event is what this test reads
        }
    }
}
