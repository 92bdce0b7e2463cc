package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.crypto.SecretBox;
import dev.detour.testkit.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.Rows;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

    private void assertEveryConsolePageAnswers(long broken) throws Exception {
        try (WebClient web = ConsolePages.browser(false)) {
            ConsolePages.signIn(web, gw.base());
            for (String path : new String[] {"/", "/accounts", "/accounts/" + broken + "/edit", "/groups", "/keys",
                "/requests", "/recovery", "/audit", "/settings"}) {
                assertEquals(200, web.getPage(gw.base() + path).getWebResponse().getStatusCode(), path);
            }
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
