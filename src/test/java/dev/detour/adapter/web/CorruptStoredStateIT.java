package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.crypto.SecretBox;
import dev.detour.adapter.db.AccountRows;
import dev.detour.admin.KeyPolicies;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * D-4 against the real shared MariaDB: one account row corrupted with plain SQL, of each kind Detour
 * can meet (bad JSON in a column, an unknown enum value, an upstream key sealed under another master
 * key, an out-of-range value). A fresh App starts on it, routes around only that account, keeps
 * applying other edits at the next refresh, answers it in the API and console, and a PUT repairs it.
 */
class CorruptStoredStateIT {
    private static final String MAPPING = "[{\"from\":\"m\",\"to\":\"m\"}]";
    private static final byte[] OTHER_MASTER_KEY = "another-32-byte-master-key-00000".getBytes();
    private Gateway gw;
    private FakeUpstream brokenUpstream;
    private FakeUpstream healthyUpstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        brokenUpstream = FakeUpstream.start();
        healthyUpstream = FakeUpstream.start();
    }

    @AfterEach
    void stop() {
        gw.close();
        brokenUpstream.close();
        healthyUpstream.close();
    }

    static Stream<Arguments> corruptions() {
        return Stream.of(
                corruption("model_mappings_json is not JSON", id -> "SET model_mappings_json = '[{\"from\":'",
                        "model_mappings", "{\"model_mappings\":" + MAPPING + "}"),
                corruption("model_mappings_json is an object, not a list", id -> "SET model_mappings_json = '{}'",
                        "model_mappings", "{\"model_mappings\":" + MAPPING + "}"),
                corruption("failure_policy_json is not JSON", id -> "SET failure_policy_json = '{oops'",
                        "failure_policy", "{\"failure_policy\":{\"retry_count\":1}}"),
                corruption("failure_policy_json holds an out-of-range retry count",
                        id -> "SET failure_policy_json = '{\"retry_count\":99}'", "failure_policy",
                        "{\"failure_policy\":{\"retry_count\":1}}"),
                corruption("breaker_json is not JSON", id -> "SET breaker_json = '[1,2'", "breaker",
                        "{\"breaker\":{\"enabled\":false}}"),
                corruption("backoff_json names an unknown mode", id -> "SET backoff_json = '{\"mode\":\"sideways\"}'",
                        "backoff", "{\"backoff\":{\"mode\":\"fixed\"}}"),
                corruption("platform is an unknown enum value", id -> "SET platform = 'gopher'", "platform",
                        "{\"platform\":\"openai-compatible\"}"),
                corruption("endpoint_families names an unknown family",
                        id -> "SET endpoint_families = 'chat_completions,telepathy'", "endpoint_families",
                        "{\"endpoint_families\":[\"chat_completions\"]}"),
                corruption("status is an unknown enum value", id -> "SET status = 'zombie'", "status",
                        "{\"notes\":\"looked at it\"}"),
                corruption("weight is out of range", id -> "SET weight = 0", "weight", "{\"weight\":5}"),
                corruption("the upstream key was sealed under another master key",
                        id -> "SET api_key_cipher = '" + new SecretBox(OTHER_MASTER_KEY).seal("sk-test-old-secret", id)
                                + "'", "api_key", "{\"api_key\":\"sk-test-reentered-secret\"}"));
    }

    private static Arguments corruption(String kind, LongFunction<String> set, String field, String repair) {
        return Arguments.of(kind, set, field, repair);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corruptions")
    void aCorruptAccountIsConfigErrorAloneAndAPutRepairsIt(String kind, LongFunction<String> set, String field,
            String repair) throws Exception {
        long broken = gw.account("broken", brokenUpstream, MAPPING, "{\"priority\":0}");
        long healthy = gw.account("healthy", healthyUpstream, MAPPING, "{\"priority\":5}");
        gw.key();
        Rows.execute("UPDATE accounts " + set.apply(broken) + " WHERE id = " + broken);

        gw = gw.restart(); // start-up succeeds on the corrupted database

        assertEquals(200, gw.chat("m").statusCode(), "the other account serves");
        assertEquals(0, brokenUpstream.requestCount(), "the corrupt account is out of routing");
        assertEquals(1, healthyUpstream.requestCount());

        JsonNode doc = gw.admin("GET", "/accounts/" + broken, null);
        assertEquals("config_error", doc.path("state").path("status").asText(), doc.toString());
        assertTrue(doc.path("config_error").path("reason").asText().startsWith(field + ": "), doc.toString());
        assertEquals(field, doc.path("config_error").path("fields").get(0).asText());
        assertFalse(doc.toString().contains("secret"), "never a secret: " + doc);
        assertEquals(2, gw.admin("GET", "/accounts", null).path("items").size(), "the list answers both");

        gw.admin("PUT", "/accounts/" + healthy, "{\"weight\":7}");
        gw.app.snapshot().refreshIfChanged(); // the refresher's tick
        assertEquals(7, gw.app.snapshot().view().byId().get(healthy).weight(), "other edits still apply");
        assertTrue(gw.app.snapshot().view().byId().get(broken).hasConfigError());

        assertEveryConsolePageAnswers(broken);

        JsonNode repaired = gw.admin("PUT", "/accounts/" + broken, repair);
        assertEquals("ok", repaired.path("state").path("status").asText(), repaired.toString());
        assertFalse(repaired.has("config_error"), repaired.toString());
        gw.app.snapshot().refreshIfChanged();
        assertEquals(200, gw.chat("m").statusCode());
        assertEquals(1, brokenUpstream.requestCount(), "routing resumes on the repaired account (priority 0)");
    }

    @Test
    void aGroupDetourCannotReadKeepsOnlyItsOwnAccountsOutUntilItIsSaved() throws Exception {
        long other = gw.group("other");
        long broken = gw.account("broken", brokenUpstream, MAPPING, "{\"priority\":0,\"group\":\"other\"}");
        gw.account("healthy", healthyUpstream, MAPPING, "{\"priority\":5}");
        gw.key();
        Rows.execute("UPDATE groups_ SET halt_policy = 'sometimes' WHERE id = " + other);

        gw = gw.restart();

        assertEquals(200, gw.chat("m").statusCode());
        assertEquals(0, brokenUpstream.requestCount(), "an account of the unreadable group is out of routing");
        JsonNode account = gw.admin("GET", "/accounts/" + broken, null);
        assertEquals("config_error", account.path("state").path("status").asText());
        assertEquals("group", account.path("config_error").path("fields").get(0).asText());
        assertEquals("other", account.path("group").asText());
        assertEquals("halt_policy: unknown halt policy 'sometimes'",
                gw.admin("GET", "/groups/" + other, null).path("config_error").path("reason").asText());
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage groups = web.getPage(gw.base() + "/groups");
            assertTrue(groups.querySelector("#group-" + other + " .badge-config-error").getTextContent()
                    .contains("out of routing"));
        }

        gw.admin("PUT", "/groups/" + other, "{\"name\":\"other\",\"halt_policy\":\"off\"}");
        gw.app.snapshot().refreshIfChanged();
        assertEquals(200, gw.chat("m").statusCode());
        assertEquals(1, brokenUpstream.requestCount(), "saving the group brings its accounts back");
    }

    @Test
    void aLostMasterKeyLeavesDetourRunningWithEveryAccountConfigErrorAndTheConsoleSaysWhatToDo() throws Exception {
        long first = gw.account("first", brokenUpstream, MAPPING, null);
        long second = gw.account("second", healthyUpstream, MAPPING, null);
        gw.key();

        gw = gw.restart(c -> c.withSecrets(OTHER_MASTER_KEY, TestApp.ADMIN_PASSWORD, TestApp.ADMIN_TOKEN));

        assertEquals(503, gw.chat("m").statusCode(), "no account can serve, and Detour says so");
        assertEquals(0, brokenUpstream.requestCount() + healthyUpstream.requestCount(), "no call with a garbled key");
        for (long id : new long[] {first, second}) {
            JsonNode doc = gw.admin("GET", "/accounts/" + id, null);
            assertEquals("config_error", doc.path("state").path("status").asText());
            assertEquals("api_key: " + AccountRows.KEY_DOES_NOT_OPEN, doc.path("config_error").path("reason").asText());
        }
        assertEquals(2.0, metric("detour_config_errors"));
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            String banner = ((HtmlPage) web.getPage(gw.base() + "/accounts")).querySelector("#master-key-banner")
                    .getTextContent();
            assertTrue(banner.contains("DETOUR_MASTER_KEY") && banner.contains("master.key")
                    && banner.contains("re-enter each upstream key"), banner);
        }

        gw.admin("PUT", "/accounts/" + first, "{\"api_key\":\"sk-test-reentered-secret\"}");
        gw.app.snapshot().refreshIfChanged();
        assertEquals(200, gw.chat("m").statusCode());
        assertEquals("Bearer sk-test-reentered-secret", brokenUpstream.lastRequest().header("Authorization"));
        assertEquals(1.0, metric("detour_config_errors"));
    }

    @Test
    void aKeyWhoseStoredPolicyCannotBeReadIsRefusedNeverServedUnrestricted() throws Exception {
        gw.account("healthy", healthyUpstream, MAPPING, null);
        gw.key();
        long keyId = gw.admin("GET", "/keys", null).path("items").get(0).path("id").asLong();
        Rows.execute("UPDATE detour_keys SET policy_json = '{\"spend_limit\":' WHERE id = " + keyId);

        gw = gw.restart();

        var refused = gw.chat("m");
        assertEquals(403, refused.statusCode());
        assertEquals("key.config_error", Gateway.read(refused.body()).path("error").path("code").asText());
        assertEquals(0, healthyUpstream.requestCount());
        assertEquals(KeyPolicies.UNREADABLE, gw.admin("GET", "/keys/" + keyId, null).path("config_error")
                .path("reason").asText());
        assertEquals(1.0, metric("detour_config_errors"));
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage keys = web.getPage(gw.base() + "/keys");
            assertTrue(keys.querySelector("#key-" + keyId + " .badge-config-error").getTextContent()
                    .contains("Save its policy to repair it"));
        }

        JsonNode repaired = gw.admin("PUT", "/keys/" + keyId, "{\"spend_limit\":null}");
        assertFalse(repaired.has("config_error"), repaired.toString());
        gw.app.snapshot().refreshIfChanged();
        assertEquals(200, gw.chat("m").statusCode());
    }

    @Test
    void anOutOfRangeStoredSettingFallsBackAloneAndTheSettingsPageSaysWhy() throws Exception {
        Rows.execute("INSERT INTO settings (name, value, updated_at) VALUES ('retention_days', '0', NOW(3)), "
                + "('sticky_ttl_seconds', '60', NOW(3)) ON DUPLICATE KEY UPDATE value = VALUES(value)");

        gw = gw.restart();

        assertEquals(30, gw.app.settings().current().retentionDays(), "the default, for that setting only");
        assertEquals(60, gw.app.settings().current().stickyTtl().toSeconds(), "the readable one applies");
        assertEquals(Map.of("retention_days", "0"), gw.app.settings().unreadable());
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            HtmlPage settings = web.getPage(gw.base() + "/settings");
            String why = settings.querySelector("#unreadable-retention_days").getTextContent();
            assertTrue(why.contains("\u201c0\u201d") && why.contains("default 30"), why);
            assertEquals(null, settings.querySelector("#unreadable-sticky_ttl_seconds"));
        }

        gw.admin("PUT", "/settings", "{\"retention_days\":7}");
        assertEquals(Map.of(), gw.app.settings().unreadable(), "a valid save repairs it");
        assertEquals(7, gw.app.settings().current().retentionDays());
    }

    private double metric(String name) {
        String text = gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/metrics"))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).GET().build()).body();
        return text.lines().filter(l -> l.startsWith(name + " ")).mapToDouble(l -> Double.parseDouble(l.split(" ")[1]))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in /metrics"));
    }

    private void assertEveryConsolePageAnswers(long broken) throws Exception {
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            for (String path : new String[] {"/", "/accounts", "/accounts/" + broken + "/edit", "/groups", "/keys",
                "/requests", "/recovery", "/audit", "/settings"}) {
                assertEquals(200, web.getPage(gw.base() + path).getWebResponse().getStatusCode(), path);
            }
            HtmlPage home = web.getPage(gw.base() + "/");
            assertEquals("1", home.querySelector("#state-config_error .n").getTextContent());
            HtmlPage accounts = web.getPage(gw.base() + "/accounts");
            assertEquals("Config error", accounts.querySelector("#account-" + broken + " .tag-config_error")
                    .getTextContent().strip());
            assertTrue(accounts.querySelector("#account-" + broken + " .badge-config-error").getTextContent()
                    .contains("Edit the account to repair it"));
            HtmlPage drawer = web.getPage(gw.base() + "/accounts/" + broken + "/edit");
            assertTrue(drawer.querySelector("#config-error").getTextContent().contains("out of routing"));
        }
    }
}
