package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.adapter.crypto.SecretBox;
import dev.detour.adapter.api.Documents;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.account.Account;
import dev.detour.core.account.AccountStatus;
import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.account.BreakerPolicy;
import dev.detour.core.account.FailurePolicy;
import dev.detour.core.account.ModelMappings;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** D-4 decoding rules: a stored account row never fails to decode; what cannot be read is named, alone. */
class AccountRowsTest {
    private static final SecretBox BOX = new SecretBox(new byte[32]);
    private static final long ID = 7;

    @Test
    void aSoundRowDecodesWithoutAConfigError() {
        StoredAccount stored = AccountRows.decode(row(r -> r), BOX);
        assertFalse(stored.configError());
        assertNull(stored.account().configError());
        assertEquals(List.of(), stored.unreadableFields());
        assertEquals("ok", stored.account().shownStatus());
    }

    static Stream<Arguments> corruptColumns() {
        return Stream.of(
                Arguments.of("model_mappings", "not valid JSON", with(r -> r.mappings = "[{\"from\":")),
                Arguments.of("model_mappings", "not a JSON array of {from, to}", with(r -> r.mappings = "{}")),
                Arguments.of("model_mappings", "empty", with(r -> r.mappings = "")),
                Arguments.of("model_mappings", "every mapping needs a text from and to",
                        with(r -> r.mappings = "[{\"from\":\"m\"}]")),
                Arguments.of("model_mappings", "duplicate mapping for m",
                        with(r -> r.mappings = "[{\"from\":\"m\",\"to\":\"a\"},{\"from\":\"m\",\"to\":\"b\"}]")),
                Arguments.of("platform", "unknown platform 'gopher'", with(r -> r.platform = "gopher")),
                Arguments.of("endpoint_families", "unknown endpoint family 'telepathy'",
                        with(r -> r.families = "chat_completions,telepathy")),
                Arguments.of("failure_policy", "not a JSON object", with(r -> r.failurePolicy = "[]")),
                Arguments.of("failure_policy", "retry_count must be between 0 and 10, got 99",
                        with(r -> r.failurePolicy = "{\"retry_count\":99}")),
                Arguments.of("failure_policy", "cooldown_enabled must be true or false",
                        with(r -> r.failurePolicy = "{\"cooldown_enabled\":\"yes\"}")),
                Arguments.of("breaker", "not valid JSON", with(r -> r.breaker = "[1,2")),
                Arguments.of("breaker", "ladder_seconds must be a list of seconds",
                        with(r -> r.breaker = "{\"ladder_seconds\":[\"a\"]}")),
                Arguments.of("backoff", "mode must be fixed or exponential", with(r -> r.backoff = "{\"mode\":\"x\"}")),
                Arguments.of("anthropic_beta", "mode must be pass, strip or strip_all",
                        with(r -> r.anthropicBeta = "{\"mode\":\"drop\"}")),
                Arguments.of("status", "unknown status 'zombie'", with(r -> r.status = "zombie")),
                Arguments.of("weight", "weight must be between 1 and 1000, got 0", with(r -> r.weight = 0)),
                Arguments.of("priority", "priority must be between -1000 and 1000, got 5000", with(r -> r.priority = 5000)),
                Arguments.of("max_in_flight", "max_in_flight must be between 0 and 10000, got -1",
                        with(r -> r.maxInFlight = -1)),
                Arguments.of("api_key", AccountRows.KEY_DOES_NOT_OPEN,
                        with(r -> r.cipher = new SecretBox(new byte[] {
                            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
                                .seal("sk-test-secret", ID))),
                Arguments.of("api_key", AccountRows.KEY_DOES_NOT_OPEN, with(r -> r.cipher = "v1:not-base64!")),
                Arguments.of("group", "group default cannot be read (halt_policy: unknown halt policy 'sometimes'); "
                        + "repair the group", with(r -> r.groupHaltPolicy = "sometimes")),
                Arguments.of("group", "group default cannot be read (ratio_ppm: ratio_ppm must be between 1 and "
                        + "100000000 (1000000 = 1.0x), got 0); repair the group", with(r -> r.groupRatioPpm = 0)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("corruptColumns")
    void anUnreadableColumnMakesTheAccountConfigErrorNamingTheFieldAndWhy(String field, String why,
            UnaryOperator<Columns> corrupt) {
        StoredAccount stored = AccountRows.decode(row(corrupt), BOX);
        assertEquals(field + ": " + why, stored.account().configError());
        assertEquals(List.of(field), stored.unreadableFields());
        assertEquals(Account.CONFIG_ERROR, stored.account().shownStatus());
        assertEquals("relay", stored.account().name(), "what can be read is still there");
        assertEquals("default", Documents.account(stored).path("group").asText(), "the group's name stays readable");
    }

    @Test
    void standInsReplaceTheUnreadableColumnsAndEveryProblemIsListed() {
        StoredAccount stored = AccountRows.decode(row(r -> {
            r.mappings = "nope";
            r.failurePolicy = "nope";
            r.breaker = "nope";
            r.backoff = "nope";
            r.status = "??";
            return r;
        }), BOX);
        assertEquals(List.of("model_mappings", "failure_policy", "breaker", "backoff", "status"),
                stored.unreadableFields());
        assertEquals(ModelMappings.PASS_THROUGH, stored.config().mappings());
        assertEquals(FailurePolicy.SEED_DEFAULTS, stored.config().failurePolicy());
        assertEquals(BreakerPolicy.DEFAULTS, stored.config().breaker());
        assertEquals(BackoffPolicy.DEFAULTS, stored.config().backoff());
        assertEquals(AccountStatus.ERROR, stored.account().status(), "the stored status is never config_error");
        assertTrue(stored.account().configError().contains("; status: unknown status '??'"));
    }

    @Test
    void missingOptionalColumnsAreDefaultsNotErrors() {
        StoredAccount stored = AccountRows.decode(row(r -> {
            r.failurePolicy = null;
            r.breaker = null;
            r.backoff = null;
            r.families = null;
            return r;
        }), BOX);
        assertFalse(stored.configError());
        assertFalse(stored.config().failurePolicy().cooldownEnabled(), "C-1': a stored account keeps cooldown off");
    }

    @Test
    void aCorruptRecoveryRuleKeepsItsOwnRuleAndIsNoConfigError() {
        StoredAccount stored = AccountRows.decode(row(r -> {
            r.recovery = "{\"mode\":";
            return r;
        }), BOX);
        assertTrue(stored.recoveryCorrupt(), "R-2: reads as off, writes refused");
        assertFalse(stored.configError());
    }

    @Test
    void theDocumentShowsTheConfigErrorAndNullForUnreadableFieldsNeverTheStandIn() {
        JsonNode doc = Documents.account(AccountRows.decode(row(r -> {
            r.mappings = "nope";
            return r;
        }), BOX));
        assertTrue(doc.path("model_mappings").isNull(), doc.toString());
        assertEquals("model_mappings: not valid JSON", doc.path("config_error").path("reason").asText());
        assertEquals("model_mappings", doc.path("config_error").path("fields").get(0).asText());
        assertEquals("m", Documents.account(AccountRows.decode(row(r -> r), BOX)).path("model_mappings").get(0)
                .path("from").asText());
    }

    @Test
    void aStoredTextQuotedInAReasonIsShortAndOneLine() {
        StoredAccount stored = AccountRows.decode(row(r -> {
            r.platform = "x\n".repeat(40);
            return r;
        }), BOX);
        String reason = stored.account().configError();
        assertFalse(reason.contains("\n"), reason);
        assertTrue(reason.length() < 80, reason);
    }

    private static UnaryOperator<Columns> with(Consumer<Columns> change) {
        return c -> {
            change.accept(c);
            return c;
        };
    }

    /** The columns a test corrupts; the rest of the row is fixed. */
    static final class Columns {
        String platform = "openai-compatible";
        String cipher = BOX.seal("sk-test-secret", ID);
        String mappings = "[{\"from\":\"m\",\"to\":\"m\"}]";
        String families = "chat_completions";
        int priority = 0;
        int weight = 10;
        String status = "ok";
        int maxInFlight = 0;
        String failurePolicy = "{\"retry_count\":2}";
        String recovery = null;
        String breaker = "{\"enabled\":false}";
        String backoff = "{\"mode\":\"fixed\"}";
        String anthropicBeta = null;
        long groupRatioPpm = 1_000_000;
        String groupHaltPolicy = "off";
    }

    private static AccountRow row(UnaryOperator<Columns> corrupt) {
        Columns c = corrupt.apply(new Columns());
        Instant t = Instant.parse("2026-11-29T10:00:00Z");
        return new AccountRow(ID, "relay", 1, c.platform, "https://relay.example/v1", c.cipher, "sk-…cret", c.mappings,
                c.families, c.priority, c.weight, true, false, c.status, null, c.maxInFlight, c.failurePolicy,
                c.recovery, c.breaker, c.backoff, c.anthropicBeta, null, 0, null, null, null, null, null, 0, null, 0, 0, null, 0, 0, 0,
                null, 1, t, t, "default", c.groupRatioPpm, c.groupHaltPolicy, null,
                null);
    }
}
