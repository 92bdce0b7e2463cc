package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.Gateway;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** L-2 in the console: the dashboard's queue figures, queued_ms in the request detail, the two settings. */
class WaitQueueConsoleIT extends ConsoleCase {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final CountDownLatch held = new CountDownLatch(1);
    private final FakeUpstream upstream = FakeUpstream.start();

    @AfterEach
    void stop() {
        held.countDown();
        upstream.close();
    }

    private HtmlPage page(String path) throws Exception {
        return web.getPage(gw.base() + path);
    }

    private CompletableFuture<HttpResponse<String>> chat() {
        return http.sendAsync(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + gw.key()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[]}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String text(HtmlPage page, String selector) {
        return page.querySelector(selector).getTextContent().trim();
    }

    @Test
    void theDashboardShowsWhoWaitsAndTheDetailAndExplanationHowLongItWaited() throws Exception {
        gw.account("relay-a", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]", "{\"max_in_flight\":1}");
        upstream.handler(r -> upstream.requestCount() == 1 ? Reply.stallBeforeHeaders().releasedBy(held)
                : Reply.chatCompletion());
        CompletableFuture<HttpResponse<String>> first = chat();
        Gateway.await(() -> upstream.requestCount() == 1, "the first request holds the account");
        CompletableFuture<HttpResponse<String>> waiting = chat();
        Gateway.await(() -> gw.app.waitQueue().waiting() == 1, "the second waits");

        assertEquals("1", text(page("/"), "#wait-queue .queue-waiting"));

        held.countDown();
        assertEquals(200, first.join().statusCode());
        HttpResponse<String> served = waiting.join();
        assertEquals(200, served.statusCode(), served.body());
        gw.events(2);
        HtmlPage home = page("/");
        assertEquals("0", text(home, "#wait-queue .queue-waiting"));
        assertEquals("1", text(home, "#wait-queue .queue-waits"));
        assertTrue(text(home, "#wait-queue .queue-average").endsWith(" ms"));
        String id = served.headers().firstValue("x-detour-request-id").orElseThrow();
        String queued = text(page("/requests/" + id), "#request-summary .queued");
        assertTrue(queued.matches("\\d+ ms"), queued);
        HttpResponse<String> explained = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/v1/detour/explain/"
                + id)).header("Authorization", "Bearer " + gw.key()).build());
        assertTrue(Gateway.read(explained.body()).path("queued_ms").isInt(), explained.body());
        String notQueued = first.join().headers().firstValue("x-detour-request-id").orElseThrow();
        assertEquals("—", text(page("/requests/" + notQueued), "#request-summary .queued"));
    }

    @Test
    void theSettingsPageEditsTheQueueBoundsAndRejectsABadOne() throws Exception {
        HtmlForm form = page("/settings").getHtmlElementById("settings-form");
        form.getInputByName("queue_max_length").setValue("-1");
        HtmlPage rejected = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
        assertEquals(422, rejected.getWebResponse().getStatusCode());
        assertNotNull(rejected.querySelector("#error-queue_max_length"));

        HtmlForm again = rejected.getHtmlElementById("settings-form");
        again.getInputByName("queue_max_length").setValue("5");
        again.getInputByName("queue_wait_seconds").setValue("10");
        again.getOneHtmlElementByAttribute("button", "type", "submit").click();

        assertEquals(5, gw.app.settings().current().queueLimits().maxLength());
        assertEquals(10, gw.app.settings().current().queueLimits().maxWait().toSeconds());
    }
}
