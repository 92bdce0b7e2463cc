package dev.detour.smart;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Smart-key test helpers over {@link Gateway}: groups with ratios, keys with policies, calls with a given key. */
final class SmartFixture {
    final Gateway gw;

    SmartFixture(Gateway gw) {
        this.gw = gw;
    }

    long group(String name, long ratioPpm) {
        return gw.admin("POST", "/groups", "{\"name\":\"" + name + "\",\"ratio_ppm\":" + ratioPpm + "}").path("id")
                .asLong();
    }

    /** An account serving {@code model} as {@code upstreamName}, in {@code group}, at {@code priority}. */
    long account(String name, FakeUpstream upstream, String group, int priority, String model, String upstreamName) {
        return gw.account(name, upstream, "[{\"from\":\"" + model + "\",\"to\":\"" + upstreamName + "\"}]",
                "{\"group\":\"" + group + "\",\"priority\":" + priority + ",\"failure_policy\":{\"retry_count\":0,"
                        + "\"retry_interval_ms\":0,\"cooldown_enabled\":true,\"cooldown_seconds\":10}}");
    }

    /** Account "a" serving {@code m} as {@code up-m}, priced at one micro per token (a fake chat costs > 12 micros). */
    long pricedAccount(FakeUpstream upstream) {
        long id = account("a", upstream, "default", 0, "m", "up-m");
        prices("[{\"model\":\"up-m\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000}]");
        return id;
    }

    JsonNode createKey(String policyJson) {
        JsonNode created = gw.admin("POST", "/keys", policyJson);
        if (!created.has("key")) {
            throw new IllegalStateException("key not created: " + created);
        }
        return created;
    }

    String key(String policyJson) {
        return createKey(policyJson).path("key").asText();
    }

    HttpResponse<String> chat(String key, String model) {
        return post(key, "/v1/chat/completions", "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hi\"}]}");
    }

    HttpResponse<String> post(String key, String path, String body) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + path)).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    HttpResponse<String> get(String key, String path) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + path)).header("Authorization", "Bearer " + key)
                .GET().build());
    }

    void prices(String pricesJson) {
        JsonNode answer = gw.admin("PUT", "/prices", "{\"prices\":" + pricesJson + "}");
        if (!answer.has("prices")) {
            throw new IllegalStateException("prices not set: " + answer);
        }
    }

    /** The key holder's view of one chat route on {@code /my} (state wire name, then its words), signed in afresh. */
    String myRoute(String key, String model, long accountId) {
        try (org.htmlunit.WebClient web = new org.htmlunit.WebClient()) {
            web.getOptions().setJavaScriptEnabled(false);
            web.getOptions().setCssEnabled(false);
            web.addRequestHeader("Accept-Language", "en");
            org.htmlunit.html.HtmlForm form = ((org.htmlunit.html.HtmlPage) web.getPage(gw.base() + "/my"))
                    .getHtmlElementById("my-login");
            form.getInputByName("key").setValue(key);
            org.htmlunit.html.HtmlPage my = form.getOneHtmlElementByAttribute("button", "type", "submit").click();
            String html = my.getWebResponse().getContentAsString();
            if (html.contains("127.0.0.1") || html.contains("sk-test") || html.contains(key)) {
                throw new AssertionError("/my shows a URL or a secret: " + html);
            }
            var row = my.getElementById("route-" + model + "-chat_completions-" + accountId);
            return row == null ? "absent" : row.getAttribute("data-state") + "|"
                    + row.querySelector("td.state").getTextContent().trim().replaceAll("\\s+", " ");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String requestId(HttpResponse<?> response) {
        return response.headers().firstValue("x-detour-request-id").orElseThrow();
    }

    static JsonNode json(HttpResponse<String> response) {
        return Gateway.read(response.body());
    }

    static String errorCode(HttpResponse<String> response) {
        return json(response).path("error").path("code").asText();
    }
}
