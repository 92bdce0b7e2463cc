package dev.detour.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.config.ConfigException;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.htmlunit.WebClient;
import org.htmlunit.html.DomElement;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Demo mode: the real App with DETOUR_DEMO on, against the shared test MariaDB. The trickle's
 * loop is stopped and its {@code tick()} called by hand; the clock is frozen, so cooldowns hold still.
 */
class DemoModeIT {
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final List<App> apps = new ArrayList<>();
    private final java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();

    @BeforeEach
    void cleanDatabase() {
        TestDatabase.clean();
    }

    @AfterEach
    void stopApps() {
        apps.forEach(App::close);
    }

    private App startDemo() {
        App app = TestApp.start(TestApp.config().withDemo(true), clock);
        apps.add(app);
        app.demo().orElseThrow().trickle().stop();
        return app;
    }

    private JsonNode admin(App app, String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/admin/api" + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return Gateway.read(http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).body());
    }

    private Map<String, JsonNode> itemsByName(App app, String path) throws Exception {
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        admin(app, "GET", path, null).path("items").forEach(item -> byName.merge(item.path("name").asText(), item,
                (a, b) -> { throw new AssertionError("two items named " + a.path("name")); }));
        return byName;
    }

    @Test
    void aFewTricklesShowTheErrorCountCooldownUnavailableModelAndBudgetPoolReminder() throws Exception {
        App app = startDemo();
        DemoTrickle trickle = app.demo().orElseThrow().trickle();
        for (int i = 0; i < DemoTrickle.SCRIPT.size(); i++) {
            assertEquals(200, trickle.tick(), "failover hides every demo failure from the client");
        }

        Map<String, JsonNode> accounts = itemsByName(app, "/accounts");
        JsonNode flaky = accounts.get("demo-relay-flaky").path("state");
        assertTrue(flaky.path("transient_failure_count").asInt() >= 1, flaky.toString());
        assertEquals(30, flaky.path("cooldown_remaining_s").asLong(), "C-3: its only model failed, the account cools");
        assertEquals(1, flaky.path("unavailable_model_count").asInt());
        JsonNode busy = accounts.get("demo-relay-busy").path("state");
        JsonNode limited = busy.path("models").get(0);
        assertEquals(DemoBehaviour.RATE_LIMITED_MODEL, limited.path("model_key").asText());
        assertEquals(120, limited.path("cooldown_remaining_s").asLong(), "C-4: Retry-After over the 30 s window");
        assertEquals(1, busy.path("unavailable_model_count").asInt());
        assertEquals("ok", busy.path("status").asText(), "only the model is rate-limited");
        JsonNode pool = accounts.get("demo-relay-pool").path("state");
        assertEquals("error", pool.path("status").asText(), "F-5: the budget-pool envelope is quota");
        assertEquals("[\"budget_pool\"]", pool.path("reminders").toString());
        assertEquals(0, accounts.get("demo-official-a").path("state").path("transient_failure_count").asInt());

        try (WebClient web = new WebClient()) {
            web.getOptions().setJavaScriptEnabled(false);
            web.getOptions().setCssEnabled(false);
            web.addRequestHeader("Accept-Language", "zh-CN");
            HtmlPage page = signIn(web, app).getWebClient().getPage("http://127.0.0.1:" + app.port() + "/accounts");
            DomElement flakyRow = row(page, accounts, "demo-relay-flaky");
            assertTrue(text(flakyRow, ".tag").matches("错误 \\d+ 次"), text(flakyRow, ".tag"));
            assertEquals("冷却 30 秒", text(flakyRow, ".badge-cooldown"));
            assertEquals("模型 1 不可用", text(row(page, accounts, "demo-relay-busy"), ".badge-orange"));
            DomElement limitedLine = row(page, accounts, "demo-relay-busy").querySelector(".panel .model-line");
            assertEquals("(gpt-4o)", text(limitedLine, ".aliases"));
            assertEquals("剩余 120 秒", text(limitedLine, ".remaining"));
            assertEquals("友情提醒：当前中转站公共池额度耗尽，并非你个人额度耗尽，请等待下一次公共池补充额度。",
                    text(row(page, accounts, "demo-relay-pool"), ".reminder-budget_pool"));
        }
    }

    @Test
    void aSecondStartOnTheSameDatabaseSeedsNothingTwiceAndRepointsTheAccountsAtItsOwnUpstream() throws Exception {
        App first = startDemo();
        App second = startDemo(); // the first still listens, so the second's upstream has another port
        String secondUpstream = "http://127.0.0.1:" + second.demo().orElseThrow().upstream().port() + "/";
        assertNotEquals(first.demo().orElseThrow().upstream().port(), second.demo().orElseThrow().upstream().port());

        Map<String, JsonNode> accounts = itemsByName(second, "/accounts");
        assertEquals(DemoPool.ACCOUNTS.stream().map(DemoPool.Account::name).collect(Collectors.toSet()),
                accounts.keySet());
        accounts.values().forEach(a -> assertTrue(a.path("base_url").asText().startsWith(secondUpstream), a.toString()));
        assertEquals(DemoPool.GROUPS.stream().map(DemoPool.Group::name).collect(Collectors.toSet()),
                itemsByName(second, "/groups").keySet());
        assertEquals(List.of(DemoPool.KEY_NAME), List.copyOf(itemsByName(second, "/keys").keySet()));
        Map<String, Long> actions = StreamSupport.stream(admin(second, "GET", "/audit?limit=200", null).path("items")
                .spliterator(), false).collect(Collectors.groupingBy(e -> e.path("action").asText(), Collectors.counting()));
        assertEquals(5L, actions.get("account.create"));
        assertEquals(5L, actions.get("account.update"), "each account re-pointed once");
        assertEquals(3L, actions.get("group.create"));
        assertEquals(1L, actions.get("key.create"));
        assertEquals(1L, actions.get("key.rotate"), "the second start shows a fresh demo key");
        assertEquals(200, second.demo().orElseThrow().trickle().tick(), "the rotated key and the new port work");
    }

    @Test
    void demoModeRefusesADatabaseThatHoldsARealPoolAndWritesNothing() throws Exception {
        App plain = TestApp.start(clock);
        apps.add(plain);
        admin(plain, "POST", "/groups", "{\"name\":\"team\"}");
        admin(plain, "POST", "/accounts", "{\"name\":\"team-relay\",\"group\":\"team\",\"platform\":\"openai-compatible\","
                + "\"base_url\":\"https://relay.example\",\"api_key\":\"sk-team-secret\"}");

        ConfigException refused = assertThrows(ConfigException.class,
                () -> TestApp.start(TestApp.config().withDemo(true), clock));
        assertTrue(refused.getMessage().startsWith("DETOUR_DEMO: "), refused.getMessage());
        assertTrue(refused.getMessage().contains("team-relay"), refused.getMessage());
        assertEquals(List.of("team-relay"), List.copyOf(itemsByName(plain, "/accounts").keySet()));
        assertEquals(List.of("team"), List.copyOf(itemsByName(plain, "/groups").keySet()));
        assertEquals(0, admin(plain, "GET", "/keys", null).path("items").size());
    }

    private static HtmlPage signIn(WebClient web, App app) throws Exception {
        HtmlPage login = web.getPage("http://127.0.0.1:" + app.port() + "/login");
        HtmlForm form = login.querySelector("form.login");
        form.getInputByName("username").setValue("admin");
        form.getInputByName("password").setValue(TestApp.ADMIN_PASSWORD);
        return form.getOneHtmlElementByAttribute("button", "type", "submit").click();
    }

    private static DomElement row(HtmlPage page, Map<String, JsonNode> accounts, String name) {
        return page.getElementById("account-" + accounts.get(name).path("id").asLong());
    }

    private static String text(DomElement element, String selector) {
        DomElement found = element.querySelector(selector);
        return found == null ? null : found.getTextContent().trim();
    }
}
