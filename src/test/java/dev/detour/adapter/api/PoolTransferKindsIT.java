package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-2 for the kinds beside groups, accounts, settings and prices: block rules (account and group rules by name),
 * key policies (never a key's secret; applied to the key of that name, skipped where there is none) and alert
 * channels (secrets sealed with the passphrase) — export → wipe → import reproduces each, object by object.
 */
class PoolTransferKindsIT {
    private static final String PASSPHRASE = "correct horse battery staple";
    private Gateway gw;
    private FakeUpstream upstream;
    private AlertReceiver receiver;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        receiver = AlertReceiver.start();
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
        receiver.close();
    }

    /** Two groups, two accounts, a rule of each scope, a key with a policy naming a group, a webhook channel. */
    private void buildPool() {
        long relays = gw.admin("POST", "/groups", "{\"name\":\"relays\"}").path("id").asLong();
        long relayA = gw.admin("POST", "/accounts", AccountBodies.account("relay-a").put("group", "relays")
                .put("base_url", upstream.url()).put("api_key", "sk-relay-a-SECRET-0123456789").toString())
                .path("id").asLong();
        gw.admin("POST", "/accounts", AccountBodies.account("relay-b").put("group", "default")
                .put("base_url", upstream.url()).put("api_key", "sk-relay-b-SECRET-9876543210").toString());
        gw.admin("POST", "/blocks", "{\"scope\":\"account\",\"value\":\"" + relayA + "\",\"reason\":\"flaky\","
                + "\"expires_at\":\"2027-01-01T00:00:00Z\"}");
        gw.admin("POST", "/blocks", "{\"scope\":\"group\",\"value\":\"" + relays + "\",\"reason\":\"maintenance\"}");
        gw.admin("POST", "/blocks", "{\"scope\":\"model\",\"value\":\"gpt-old\",\"reason\":\"retired\"}");
        JsonNode key = gw.admin("POST", "/keys", "{\"name\":\"team-a\",\"owner_label\":\"team a\",\"rpm_limit\":30,"
                + "\"spend_windows\":{\"day\":5000000},\"allowed_models\":[\"gpt-5.6-sol\"],\"groups\":{"
                + "\"include_future\":false,\"include\":[\"relays\"],\"exclude\":[]},\"strategy\":\"manual\","
                + "\"manual_group_order\":[" + relays + "]}");
        assertTrue(key.has("key"), key.toString());
        JsonNode channel = gw.admin("POST", "/alerts/channels", "{\"name\":\"ops-hook\",\"kind\":\"webhook\",\"url\":\""
                + receiver.url("/hook?token=SECRET-abc123") + "\",\"events\":[\"account.error\"],"
                + "\"suppress_seconds\":300}");
        assertTrue(channel.has("id"), channel.toString());
    }

    /** Every block rule, key and channel as the admin API shows it, by name; ids turned into names, times left out. */
    private Map<String, JsonNode> pool() {
        Map<String, String> groupNames = new HashMap<>();
        gw.admin("GET", "/groups", null).path("items").forEach(g -> groupNames.put(g.path("id").asText(),
                g.path("name").asText()));
        Map<String, String> accountNames = new HashMap<>();
        gw.admin("GET", "/accounts", null).path("items").forEach(a -> accountNames.put(a.path("id").asText(),
                a.path("name").asText()));
        Map<String, JsonNode> objects = new TreeMap<>();
        for (JsonNode b : gw.admin("GET", "/blocks", null).path("items")) {
            ObjectNode rule = without(b, "id", "created_at", "operator");
            String scope = rule.path("scope").asText();
            Map<String, String> names = scope.equals("account") ? accountNames : scope.equals("group") ? groupNames
                    : null;
            if (names != null) {
                rule.put("value", names.get(rule.path("value").asText()));
            }
            objects.put("block " + scope + " " + rule.path("value").asText(), rule);
        }
        for (JsonNode k : gw.admin("GET", "/keys", null).path("items")) {
            ObjectNode key = without(k, "id", "key_hint", "spent_micros", "created_at", "updated_at", "last_used_at");
            ObjectNode groups = (ObjectNode) key.path("groups");
            groups.set("include", named(groups.path("include"), groupNames));
            groups.set("exclude", named(groups.path("exclude"), groupNames));
            key.set("manual_group_order", named(key.path("manual_group_order"), groupNames));
            // an unset policy field reads the same absent or null (the document carries every field, null when unset)
            List<String> unset = new java.util.ArrayList<>();
            key.fields().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    unset.add(e.getKey());
                }
            });
            key.remove(unset);
            objects.put("key " + key.path("name").asText(), key);
        }
        for (JsonNode c : gw.admin("GET", "/alerts/channels", null).path("items")) {
            objects.put("channel " + c.path("name").asText(), without(c, "id"));
        }
        return objects;
    }

    private static ArrayNode named(JsonNode ids, Map<String, String> names) {
        ArrayNode out = Gateway.JSON.createArrayNode();
        ids.forEach(id -> out.add(names.get(id.asText())));
        return out;
    }

    private static ObjectNode without(JsonNode o, String... fields) {
        ObjectNode copy = o.deepCopy();
        copy.remove(List.of(fields));
        return copy;
    }

    private JsonNode importDocument(JsonNode doc, boolean dryRun) {
        ObjectNode body = Gateway.JSON.createObjectNode();
        body.set("document", doc);
        body.put("passphrase", PASSPHRASE);
        return gw.admin("POST", "/import?dry_run=" + dryRun, body.toString());
    }

    private ObjectNode exportWithKeys() {
        return (ObjectNode) gw.admin("POST", "/export", "{\"include_keys\":true,\"passphrase\":\"" + PASSPHRASE + "\"}");
    }

    private long imports() {
        long n = 0;
        for (JsonNode e : gw.admin("GET", "/audit?limit=200", null).path("items")) {
            n += e.path("action").asText().equals("pool.import") ? 1 : 0;
        }
        return n;
    }

    private static JsonNode line(JsonNode answer, String section, String name) {
        for (JsonNode c : answer.path("changes")) {
            if (c.path("section").asText().equals(section) && c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no " + section + " line for " + name + " in " + answer);
    }

    @Test
    void exportWipeImportReproducesBlockRulesKeyPoliciesAndChannelsOnceTheKeyExistsByName() {
        buildPool();
        Map<String, JsonNode> before = pool();
        assertEquals(5, before.size(), before.keySet().toString());
        JsonNode doc = exportWithKeys();
        assertFalse(doc.toString().contains("SECRET"), "no upstream key or channel secret in plain text");
        assertFalse(doc.toString().contains("dtr-"), "never a Detour key's secret");
        assertEquals("relay-a", doc.path("block_rules").get(0).path("value").asText(), "an account rule names it");
        assertEquals("[\"relays\"]", doc.path("keys").get(0).path("groups").path("include").toString());

        gw.close();
        gw = Gateway.start(); // a fresh database
        JsonNode dry = importDocument(doc, true);
        assertEquals(3, dry.path("counts").path("block_rules").path("create").asInt(), dry.toString());
        assertEquals(1, dry.path("counts").path("alert_channels").path("create").asInt());
        assertEquals(1, dry.path("counts").path("keys").path("skipped").asInt());
        assertEquals(KeysSection.NOT_HERE, line(dry, "keys", "team-a").path("reason").asText());
        assertTrue(pool().isEmpty(), "a dry run changes nothing");

        JsonNode applied = importDocument(doc, false);
        assertEquals(dry.path("counts"), applied.path("counts"));
        assertEquals(0, gw.admin("GET", "/keys", null).path("items").size(), "no key is created by an import");

        gw.admin("POST", "/keys", "{\"name\":\"team-a\"}"); // the operator makes the key here, then imports again
        JsonNode second = importDocument(doc, false);
        assertEquals("update", line(second, "keys", "team-a").path("action").asText(), second.toString());
        assertEquals(3, second.path("counts").path("block_rules").path("unchanged").asInt());
        Map<String, JsonNode> after = pool();
        assertEquals(before.keySet(), after.keySet());
        before.forEach((name, object) -> assertEquals(object, after.get(name), name));
        assertEquals(2, imports(), "one audit row per import that wrote");

        long channel = gw.admin("GET", "/alerts/channels", null).path("items").get(0).path("id").asLong();
        gw.admin("POST", "/alerts/channels/" + channel + "/test", null);
        assertEquals("token=SECRET-abc123", receiver.at("/hook").get(0).query(),
                "the channel's secret URL came through sealed and opened");

        JsonNode again = importDocument(doc, false);
        for (JsonNode section : again.path("counts")) {
            assertEquals(0, section.path("create").asInt() + section.path("update").asInt(), again.toString());
        }
        assertEquals(2, imports(), "a third import writes nothing");
        assertEquals(after, pool());
    }

    @Test
    void aMalformedBlockRuleKeyPolicyOrChannelIsRefusedWithItsFieldAndChangesNothing() {
        buildPool();
        ObjectNode doc = exportWithKeys();
        Map<String, JsonNode> before = pool();
        ObjectNode unknownAccount = doc.deepCopy();
        ((ObjectNode) unknownAccount.path("block_rules").get(0)).put("value", "nobody");
        ObjectNode badLimit = doc.deepCopy();
        ((ObjectNode) badLimit.path("keys").get(0)).put("rpm_limit", "many");
        ObjectNode strangeField = doc.deepCopy();
        ((ObjectNode) strangeField.path("keys").get(0)).put("key", "dtr-smuggled");
        ObjectNode badChannel = doc.deepCopy();
        ((ObjectNode) badChannel.path("alert_channels").get(0)).put("suppress_seconds", -5);
        Map<String, ObjectNode> cases = Map.of("block_rules[0].value", unknownAccount, "keys[0].rpm_limit", badLimit,
                "keys[0].key", strangeField, "alert_channels[0].suppress_seconds", badChannel);
        for (Map.Entry<String, ObjectNode> c : cases.entrySet()) {
            ((ObjectNode) c.getValue().path("groups").get(1)).put("color", "#00ff00"); // a valid change before it
            for (boolean dryRun : new boolean[] {true, false}) {
                JsonNode refused = importDocument(c.getValue(), dryRun).path("error");
                String section = c.getKey().replaceAll("\\[.*$", "");
                String field = c.getKey().replaceAll("^.*\\.", "");
                assertEquals("validation.import." + section + "." + field, refused.path("code").asText(),
                        c.getKey() + ": " + refused);
                assertEquals(c.getKey(), refused.path("field").asText(), refused.toString());
            }
        }
        assertEquals(before, pool(), "nothing changed");
        assertFalse(gw.admin("GET", "/groups", null).toString().contains("#00ff00"), "not even the valid group");
        assertEquals(0, imports());
    }

    @Test
    void aChangedRuleReplacesTheStoredOneAndAChannelImportedWithoutSecretsKeepsItsOwn() {
        buildPool();
        ObjectNode doc = (ObjectNode) gw.admin("GET", "/export", null); // no keys, no channel secrets
        assertFalse(doc.path("alert_channels").get(0).has("secrets_sealed"));
        ((ObjectNode) doc.path("block_rules").get(2)).put("reason", "retired for good");
        ((ObjectNode) doc.path("alert_channels").get(0)).put("suppress_seconds", 60);

        JsonNode dry = importDocument(doc, true);
        assertEquals("[\"reason\"]", line(dry, "block_rules", "model:gpt-old").path("fields").toString());
        assertEquals("[\"suppress_seconds\"]", line(dry, "alert_channels", "ops-hook").path("fields").toString());
        assertEquals("unchanged", line(dry, "keys", "team-a").path("action").asText());
        importDocument(doc, false);

        Map<String, JsonNode> after = pool();
        assertEquals("retired for good", after.get("block model gpt-old").path("reason").asText());
        assertEquals(3, gw.admin("GET", "/blocks", null).path("items").size(), "replaced, not added");
        assertEquals(60, after.get("channel ops-hook").path("suppress_seconds").asInt());
        long channel = gw.admin("GET", "/alerts/channels", null).path("items").get(0).path("id").asLong();
        gw.admin("POST", "/alerts/channels/" + channel + "/test", null);
        assertEquals("token=SECRET-abc123", receiver.at("/hook").get(0).query(), "its stored secret URL kept");
    }

    @Test
    void twoRulesOfTheSameScopeAndValueTravelAsOneSoTheDocumentStillImports() {
        gw.admin("POST", "/blocks", "{\"scope\":\"model\",\"value\":\"gpt-old\",\"reason\":\"retired\"}");
        gw.admin("POST", "/blocks", "{\"scope\":\"model\",\"value\":\"gpt-old\",\"reason\":\"really\"}");
        JsonNode doc = gw.admin("GET", "/export", null);
        assertEquals(1, doc.path("block_rules").size(), doc.toString());
        assertTrue(doc.path("skipped").toString().contains("gpt-old (again)"), doc.toString());

        gw.close();
        gw = Gateway.start();
        JsonNode applied = importDocument(doc, false);
        assertEquals(1, applied.path("counts").path("block_rules").path("create").asInt(), applied.toString());
        assertEquals("retired", gw.admin("GET", "/blocks", null).path("items").get(0).path("reason").asText());
    }
}
