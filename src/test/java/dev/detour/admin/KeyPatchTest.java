package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.ValidationException;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §9 key contract: the one reading of a key's JSON, no database. */
class KeyPatchTest {
    private static final Map<String, Long> GROUPS = Map.of("east", 7L, "west", 9L);

    private static KeyPatch patch(String json) {
        try {
            return KeyPatch.parse(AdminJson.JSON.readTree(json));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode read(String json) {
        try {
            return AdminJson.JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static ObjectNode stored(String sent) {
        return patch(sent).policy().document(AdminJson.JSON.createObjectNode(), GROUPS);
    }

    private static String refusal(Runnable check) {
        return assertThrows(ValidationException.class, check::run).code();
    }

    @Test
    void absentFieldsKeepWhatIsStored() {
        KeyPatch p = patch("{}");

        assertEquals("kept", p.name().orElse("kept"));
        assertEquals("team", p.ownerLabel().orElse("team"));
        assertEquals(false, p.enabled().orElse(false));
        assertEquals(Instant.EPOCH, p.expiresAt().orElse(Instant.EPOCH));
        assertTrue(p.name().absent());
    }

    @Test
    void fieldsSentAsNullClearWhatMayBeCleared() {
        KeyPatch p = patch("{\"owner_label\": null, \"expires_at\": null}");

        assertNull(p.ownerLabel().orElse("team"));
        assertNull(p.expiresAt().orElse(Instant.EPOCH));
    }

    @Test
    void valuesAreReadAsTheKeyContractSaysTrimmedNameIncluded() {
        KeyPatch p = patch("{\"name\": \"  ci  \", \"owner_label\": \"ops\", \"enabled\": false,"
                + " \"expires_at\": \"2027-01-01T00:00:00Z\"}");

        assertEquals("ci", p.name().orElse(null));
        assertEquals("ops", p.ownerLabel().orElse(null));
        assertEquals(false, p.enabled().orElse(true));
        assertEquals(Instant.parse("2027-01-01T00:00:00Z"), p.expiresAt().orElse(null));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
        "{\"name\": null}|validation.name",
        "{\"name\": 5}|validation.name",
        "{\"name\": \"   \"}|validation.name",
        "{\"owner_label\": 5}|validation.owner_label",
        "{\"enabled\": null}|validation.enabled",
        "{\"enabled\": \"yes\"}|validation.enabled",
        "{\"expires_at\": \"tomorrow\"}|validation.expires_at",
        "{\"expires_at\": 5}|validation.expires_at"})
    void aKeyFieldOfTheWrongTypeIsRefusedWhenReachedNotWhenRead(String json, String code) {
        KeyPatch p = patch(json); // reading never throws: the check order is the use case's

        assertEquals(code, refusal(() -> {
            p.name().orElse("n");
            p.ownerLabel().orElse(null);
            p.enabled().orElse(true);
            p.expiresAt().orElse(null);
        }));
    }

    @Test
    void aNameOrOwnerLabelOverOneHundredTwentyEightCharactersIsRefused() {
        String long129 = "x".repeat(129);

        assertEquals("validation.name", refusal(() -> patch("{\"name\": \"" + long129 + "\"}").name().orElse(null)));
        assertEquals("validation.owner_label",
                refusal(() -> patch("{\"owner_label\": \"" + long129 + "\"}").ownerLabel().orElse(null)));
        assertEquals("x".repeat(128), patch("{\"name\": \"" + "x".repeat(128) + "\"}").name().orElse(null));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
        "{\"allowed_models\": \"glm\"}|validation.key_policy.allowed_models",
        "{\"allowed_models\": [\" \"]}|validation.key_policy.allowed_models",
        "{\"groups\": []}|validation.key_policy.groups",
        "{\"groups\": {\"include_future\": \"no\"}}|validation.key_policy.groups",
        "{\"groups\": {\"include\": \"east\"}}|validation.key_policy.groups",
        "{\"groups\": {\"exclude\": [\"north\"]}}|validation.key_policy.groups",
        "{\"groups\": {\"include\": [42]}}|validation.key_policy.groups",
        "{\"max_ratio_ppm\": 1.5}|validation.key_policy.max_ratio_ppm",
        "{\"max_ratio_ppm\": \"5\"}|validation.key_policy.max_ratio_ppm",
        "{\"strategy\": \"fastest\"}|validation.key_policy.strategy",
        "{\"max_attempts\": true}|validation.key_policy.max_attempts",
        "{\"balanced_weights\": {\"stability\": 50, \"price\": 50, \"latency\": 50}}|validation.key_policy.balanced_weights",
        "{\"affinity_premium_pct\": 2.5}|validation.key_policy.affinity_premium_pct",
        "{\"spend_limit\": \"12\"}|validation.key_policy.spend_limit",
        "{\"rpm_limit\": 1e30}|validation.key_policy.rpm_limit",
        "{\"tpm_limit\": 99999999999999999999}|validation.key_policy.tpm_limit",
        "{\"concurrency_limit\": 2147483648}|validation.key_policy.concurrency_limit",
        "{\"spend_windows\": [1]}|validation.key_policy.spend_windows",
        "{\"spend_windows\": {\"year\": 1}}|validation.key_policy.spend_windows",
        "{\"spend_windows\": {\"day\": 1.5}}|validation.key_policy.spend_windows",
        "{\"max_ratio_ppm\": -1}|validation.key_policy.max_ratio_ppm",
        "{\"max_attempts\": -1}|validation.key_policy.max_attempts",
        "{\"affinity_premium_pct\": 101}|validation.key_policy.affinity_premium_pct",
        "{\"spend_limit\": -0.5}|validation.key_policy.spend_limit",
        "{\"manual_group_order\": [7, 7]}|validation.key_policy.manual_group_order"})
    void aPolicyFieldOfTheWrongTypeOrOutOfRangeIsRefusedWithItsCode(String json, String code) {
        PolicyPatch p = patch(json).policy();

        assertEquals(code, refusal(() -> p.document(AdminJson.JSON.createObjectNode(), GROUPS)));
    }

    @Test
    void policyFieldsSentAsNullMeanNoneAndAreStoredAsNull() {
        ObjectNode doc = stored("{\"allowed_models\": null, \"groups\": null, \"max_ratio_ppm\": null,"
                + " \"spend_limit\": null, \"rpm_limit\": null, \"spend_windows\": null}");

        assertEquals(0, doc.get("allowed_models").size());
        assertEquals(read("{\"include_future\": true, \"include\": [], \"exclude\": []}"), doc.get("groups"));
        assertTrue(doc.get("max_ratio_ppm").isNull());
        assertTrue(doc.get("spend_limit").isNull());
        assertEquals(0, KeyPolicies.decode(doc).maxRatioPpm());
        assertNull(KeyPolicies.decode(doc).spendLimitMicros());
    }

    @Test
    void sentPolicyFieldsAreStoredAsTheyCameWithModelsTrimmedAndGroupsAsIds() {
        ObjectNode doc = stored("{\"allowed_models\": [\" glm-5.3 \"], \"groups\": {\"include\": [\"east\", 9],"
                + " \"exclude\": []}, \"spend_limit\": 12, \"spend_windows\": {\"day\": 5000000, \"week\": null}}");

        assertEquals(read("[\"glm-5.3\"]"), doc.get("allowed_models"));
        assertEquals("{\"include_future\":true,\"include\":[7,9],\"exclude\":[]}", doc.get("groups").toString());
        assertEquals("12", doc.get("spend_limit").toString());
        assertEquals(read("{\"day\": 5000000, \"week\": null}"), doc.get("spend_windows"));
        assertEquals(12_000_000L, KeyPolicies.decode(doc).spendLimitMicros());
    }

    @Test
    void anUpdateKeepsTheStoredFieldsItDoesNotSend() {
        ObjectNode before = stored("{\"max_ratio_ppm\": 500, \"strategy\": \"price\", \"rpm_limit\": 60}");

        ObjectNode after = patch("{\"rpm_limit\": 120}").policy().document(before, GROUPS);

        assertEquals(500, after.get("max_ratio_ppm").asLong());
        assertEquals("price", after.get("strategy").asText());
        assertEquals(120, after.get("rpm_limit").asLong());
        assertEquals(60, before.get("rpm_limit").asLong());
    }

    @Test
    void anInvalidStoredFieldRefusesAnUpdateThatDoesNotTouchIt() {
        ObjectNode before = (ObjectNode) read("{\"max_attempts\": \"many\"}");

        assertEquals("validation.key_policy.max_attempts",
                refusal(() -> patch("{\"rpm_limit\": 5}").policy().document(before, GROUPS)));
        assertEquals(5, patch("{\"max_attempts\": 5}").policy().document(before, GROUPS).get("max_attempts").asInt());
    }

    @Test
    void policyFieldsAreCheckedInTheContractsOrderModelsThenGroupsThenTheRest() {
        assertEquals("validation.key_policy.allowed_models", refusal(() -> stored(
                "{\"max_ratio_ppm\": 1.5, \"groups\": {\"include\": [\"north\"]}, \"allowed_models\": 3}")));
        assertEquals("validation.key_policy.groups", refusal(() -> stored(
                "{\"max_ratio_ppm\": 1.5, \"groups\": {\"include\": [\"north\"]}}")));
        assertEquals("validation.key_policy.max_ratio_ppm", refusal(() -> stored(
                "{\"spend_windows\": 3, \"max_ratio_ppm\": 1.5}")));
        assertEquals("validation.key_policy.groups", refusal(() -> stored(
                "{\"groups\": {\"include\": [\"north\"], \"exclude\": 3}}")));
    }

    @Test
    void theStoredDocumentIsReadAsTheGatewayReadsItGroupsAndModelsAsStored() {
        JsonNode doc = read("{\"allowed_models\": [\"glm\"], \"groups\": {\"include_future\": false, \"include\": [7],"
                + " \"exclude\": []}, \"max_attempts\": 3, \"concurrency_limit\": 2}");

        var policy = KeyPolicies.readStored(doc.toString()).orElseThrow();

        assertEquals(3, policy.maxAttempts());
        assertEquals(Integer.valueOf(2), policy.limits().concurrency());
        assertTrue(policy.allowsModel("glm"));
        assertTrue(KeyPolicies.readStored("{\"rpm_limit\": \"lots\"}").isEmpty());
    }
}
