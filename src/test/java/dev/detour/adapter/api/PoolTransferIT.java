package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** W-2: export → wipe → import reproduces the pool; idempotent, audited, all-or-nothing, keys sealed. */
class PoolTransferIT {
    private static final String PASSPHRASE = "correct horse battery staple";
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        upstream = FakeUpstream.start();
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    /** A pool with something set on every kind of object the document carries. */
    private void buildPool() {
        gw.admin("POST", "/groups", "{\"name\":\"relays\",\"ratio_ppm\":1500000,\"color\":\"#ff0000\","
                + "\"halt_policy\":\"on\"}");
        ObjectNode a = AccountBodies.account("relay-a").put("group", "relays").put("base_url", upstream.url())
                .put("api_key", "sk-relay-a-SECRET-0123456789").put("priority", 3).put("weight", 7)
                .put("max_in_flight", 5).put("notes", "the cheap one");
        assertTrue(gw.admin("POST", "/accounts", a.toString()).has("id"));
        ObjectNode b = AccountBodies.account("relay-b").put("group", "default").put("platform", "anthropic")
                .put("base_url", upstream.url()).put("api_key", "sk-ant-relay-b-SECRET-987654");
        b.putObject("recovery").put("mode", "healthcheck").put("probe_interval_minutes", 15);
        b.putArray("model_mappings").addObject().put("from", "claude-x").put("to", "claude-x-up");
        assertTrue(gw.admin("POST", "/accounts", b.toString()).has("id"));
        gw.admin("PUT", "/settings", "{\"queue_wait_seconds\":12,\"probe_concurrency\":5}");
        gw.admin("PUT", "/prices", "{\"prices\":[{\"model\":\"upstream-sol\",\"input_micros_per_m\":1250000,"
                + "\"output_micros_per_m\":10000000,\"cache_read_micros_per_m\":125000}]}");
    }

    /** The pool as the admin API shows it, by name, without what is local to one server (ids, times, state). */
    private Map<String, JsonNode> pool() {
        Map<String, JsonNode> objects = new TreeMap<>();
        for (JsonNode g : gw.admin("GET", "/groups", null).path("items")) {
            objects.put("group " + g.path("name").asText(), without(g, "id", "created_at", "updated_at"));
        }
        for (JsonNode a : gw.admin("GET", "/accounts", null).path("items")) {
            objects.put("account " + a.path("name").asText(), without(a, "id", "group_id", "revision", "created_at",
                    "updated_at", "state"));
        }
        objects.put("settings", gw.admin("GET", "/settings", null));
        objects.put("prices", gw.admin("GET", "/prices", null));
        return objects;
    }

    private static JsonNode without(JsonNode o, String... fields) {
        ObjectNode copy = o.deepCopy();
        copy.remove(java.util.List.of(fields));
        return copy;
    }

    private JsonNode exportWithKeys(String passphrase) {
        return gw.admin("POST", "/export", "{\"include_keys\":true,\"passphrase\":\"" + passphrase + "\"}");
    }

    private JsonNode importDocument(JsonNode doc, String passphrase, boolean dryRun) {
        ObjectNode body = Gateway.JSON.createObjectNode();
        body.set("document", doc);
        if (passphrase != null) {
            body.put("passphrase", passphrase);
        }
        return gw.admin("POST", "/import?dry_run=" + dryRun, body.toString());
    }

    private long imports() {
        long n = 0;
        for (JsonNode e : gw.admin("GET", "/audit?limit=100", null).path("items")) {
            n += e.path("action").asText().equals("pool.import") ? 1 : 0;
        }
        return n;
    }

    @Test
    void exportWipeImportReproducesThePoolObjectByObjectAndASecondImportIsANoOp() {
        buildPool();
        Map<String, JsonNode> before = pool();
        JsonNode doc = exportWithKeys(PASSPHRASE);
        assertEquals(1, doc.path("detour_export").asInt());
        assertFalse(doc.toString().contains("SECRET"), "no upstream key in plain text");

        gw.close();
        gw = Gateway.start(); // a fresh database
        JsonNode dry = importDocument(doc, PASSPHRASE, true);
        assertEquals(2, dry.path("counts").path("accounts").path("create").asInt(), dry.toString());
        assertEquals(1, dry.path("counts").path("groups").path("create").asInt(), "relays");
        assertEquals(1, dry.path("counts").path("groups").path("unchanged").asInt(), "default");
        assertEquals(1, dry.path("counts").path("settings").path("update").asInt());
        assertTrue(dry.path("changes").toString().contains("\"fields\":[\"queue_wait_seconds\",\"probe_concurrency\"]")
                || dry.path("changes").toString().contains("queue_wait_seconds"), dry.toString());
        assertEquals(0, gw.admin("GET", "/accounts", null).path("items").size(), "a dry run changes nothing");
        assertEquals(0, imports());

        JsonNode applied = importDocument(doc, PASSPHRASE, false);
        assertEquals(dry.path("counts"), applied.path("counts"));
        Map<String, JsonNode> after = pool();
        assertEquals(before.keySet(), after.keySet());
        before.forEach((name, object) -> assertEquals(object, after.get(name), name));
        assertEquals(1, imports(), "one audit row for the import");
        String audit = gw.admin("GET", "/audit?limit=5", null).toString();
        assertFalse(audit.contains("account.create"), "no row per object");

        long relayA = gw.admin("GET", "/accounts", null).path("items").get(0).path("id").asLong();
        JsonNode test = gw.admin("POST", "/accounts/" + relayA + "/test", "{\"model\":\"gpt-5.6-sol\"}");
        assertTrue(test.path("ok").asBoolean(), test.toString());
        assertEquals("Bearer sk-relay-a-SECRET-0123456789", upstream.lastRequest().header("authorization"),
                "the upstream key came through sealed and opened");

        JsonNode again = importDocument(doc, PASSPHRASE, false);
        for (JsonNode section : again.path("counts")) {
            assertEquals(0, section.path("create").asInt() + section.path("update").asInt(), again.toString());
        }
        assertEquals(1, imports(), "a second import writes nothing, not even an audit row");
        assertEquals(after, pool());
    }

    @Test
    void aMalformedDocumentIsRefusedWithItsFieldAndChangesNothing() {
        buildPool();
        ObjectNode doc = (ObjectNode) exportWithKeys(PASSPHRASE);
        ((ObjectNode) doc.path("groups").get(1)).put("color", "#00ff00"); // a valid change before the bad one
        ((ObjectNode) doc.path("accounts").get(1)).put("base_url", "not a url");
        Map<String, JsonNode> before = pool();
        for (boolean dryRun : new boolean[] {true, false}) {
            JsonNode refused = importDocument(doc, PASSPHRASE, dryRun).path("error");
            assertEquals("validation.import.accounts.base_url", refused.path("code").asText(), refused.toString());
            assertEquals("accounts[1].base_url", refused.path("field").asText());
            assertTrue(refused.path("message").asText().startsWith("relay-b: "), refused.toString());
        }
        assertEquals(before, pool(), "nothing changed, not even the valid group before it");

        ObjectNode badSetting = doc.deepCopy();
        ((ObjectNode) badSetting.path("accounts").get(1)).put("base_url", upstream.url());
        ((ObjectNode) badSetting.path("settings")).put("queue_wait_seconds", 99_999);
        assertEquals("validation.import.settings.queue_wait_seconds",
                importDocument(badSetting, PASSPHRASE, false).path("error").path("code").asText());
        ObjectNode twice = doc.deepCopy();
        ((ArrayNode) twice.path("groups")).add(twice.path("groups").get(0).deepCopy());
        assertEquals("validation.import.groups.name", importDocument(twice, PASSPHRASE, false)
                .path("error").path("code").asText());
        ObjectNode noVersion = doc.deepCopy();
        noVersion.remove("detour_export");
        assertEquals("validation.import.detour_export", importDocument(noVersion, PASSPHRASE, false)
                .path("error").path("code").asText());
        assertEquals(before, pool());
        assertEquals(0, imports());
    }

    @Test
    void upstreamKeysRoundTripOnlyWithTheRightPassphrase() {
        buildPool();
        assertEquals("validation.export.passphrase",
                gw.admin("GET", "/export?include_keys=true", null).path("error").path("code").asText());
        assertEquals("validation.export.passphrase", exportWithKeys("short").path("error").path("code").asText());
        JsonNode sealed = exportWithKeys(PASSPHRASE);
        JsonNode plain = gw.admin("GET", "/export", null);
        assertFalse(plain.toString().contains("api_key_sealed") || plain.toString().contains("SECRET"));
        assertEquals(0, importDocument(plain, null, false).path("counts").path("accounts").path("update").asInt(),
                "without keys an import keeps the stored ones");

        gw.close();
        gw = Gateway.start();
        assertEquals("validation.import.passphrase",
                importDocument(sealed, "the wrong passphrase", false).path("error").path("code").asText());
        assertEquals("validation.import.passphrase", importDocument(sealed, null, false).path("error").path("code")
                .asText());
        assertEquals("validation.import.accounts.api_key", importDocument(plain, null, false).path("error")
                .path("code").asText(), "a new account cannot be made without its key");
        assertEquals(0, gw.admin("GET", "/accounts", null).path("items").size());
        assertEquals(2, importDocument(sealed, PASSPHRASE, false).path("counts").path("accounts").path("create")
                .asInt());
    }
}
