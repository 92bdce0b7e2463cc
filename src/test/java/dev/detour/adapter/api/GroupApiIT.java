package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GroupApiIT {
    private static App app;
    private static AdminClient admin;

    @BeforeAll
    static void start() {
        app = TestApp.start(MutableClock.at("2026-11-29T10:00:00Z"));
        admin = new AdminClient(app);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @BeforeEach
    void clean() {
        TestDatabase.clean();
    }

    @Test
    void groupSurvivesCreateReadUpdateDeleteAndIsAudited() {
        var created = admin.post("/groups", "{\"name\":\"cheap\"}");
        assertEquals(201, created.status(), created.raw());
        assertEquals(1_000_000, created.json().path("ratio_ppm").asLong());
        assertEquals("off", created.json().path("halt_policy").asText());
        long id = created.id();
        var updated = admin.put("/groups/" + id, "{\"ratio_ppm\":500000,\"color\":\"#3B82F6\",\"halt_policy\":\"on\"}");
        assertEquals(200, updated.status(), updated.raw());
        assertEquals("#3b82f6", updated.json().path("color").asText());
        assertEquals("cheap", admin.get("/groups/" + id).json().path("name").asText());
        assertEquals(1, admin.get("/groups").json().path("items").size());
        assertEquals(204, admin.delete("/groups/" + id).status());
        assertEquals(404, admin.get("/groups/" + id).status());
        assertEquals(List.of("group.create", "group.update", "group.delete"),
                Sql.strings("SELECT action FROM audit_log ORDER BY id"));
    }

    @Test
    void duplicateNameAndGroupWithAccountsConflict() {
        admin.post("/groups", AccountBodies.group("cheap"));
        var duplicate = admin.post("/groups", AccountBodies.group("cheap"));
        assertEquals(409, duplicate.status());
        assertEquals("conflict.duplicate_name", duplicate.errorCode());
        long id = admin.get("/groups").json().path("items").get(0).path("id").asLong();
        admin.post("/accounts", AccountBodies.account("relay-a-1"));
        var inUse = admin.delete("/groups/" + id);
        assertEquals(409, inUse.status());
        assertEquals("conflict.group_in_use", inUse.errorCode());
        assertTrue(admin.get("/groups/" + id).status() == 200);
    }

    @ParameterizedTest(name = "{0} = {1} → {2}")
    @CsvSource(delimiter = '|', value = {
        "name | \"\" | validation.name",
        "name | 7 | validation.name",
        "ratio_ppm | 1 | ok",
        "ratio_ppm | 100000000 | ok",
        "ratio_ppm | 0 | validation.ratio_ppm",
        "ratio_ppm | 100000001 | validation.ratio_ppm",
        "ratio_ppm | \"1.0x\" | validation.ratio_ppm",
        "color | \"#abcdef\" | ok",
        "color | \"blue\" | validation.color",
        "color | \"#abcdeg\" | validation.color",
        "halt_policy | \"on\" | ok",
        "halt_policy | \"sometimes\" | validation.halt_policy"
    })
    void groupFieldsAreValidated(String field, String json, String expected) {
        String body = field.equals("name") ? "{\"name\":" + json + "}" : "{\"name\":\"g\",\"" + field + "\":" + json + "}";
        var response = admin.post("/groups", body);
        if (expected.equals("ok")) {
            assertEquals(201, response.status(), response.raw());
        } else {
            assertEquals(422, response.status(), response.raw());
            assertEquals(expected, response.errorCode());
        }
    }

    @Test
    void longestNameIs64Characters() {
        assertEquals(201, admin.post("/groups", "{\"name\":\"" + "g".repeat(64) + "\"}").status());
        assertEquals("validation.name", admin.post("/groups", "{\"name\":\"" + "g".repeat(65) + "\"}").errorCode());
    }
}
