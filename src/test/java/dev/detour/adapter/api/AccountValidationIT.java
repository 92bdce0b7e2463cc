package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.App;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every account field at and just past each bound, on create (POST) and on update (PUT). */
class AccountValidationIT {
    private static final String OK = "ok";
    private static App app;
    private static AdminClient admin;
    private long existingId;

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
    void cleanWithOneAccount() {
        TestDatabase.clean();
        admin.post("/groups", AccountBodies.group("cheap"));
        existingId = admin.post("/accounts", AccountBodies.account("existing")).id();
    }

    @ParameterizedTest(name = "{0} = {1} → {2}")
    @MethodSource("cases")
    void createAndUpdateAcceptAtTheBoundAndRejectJustPastIt(String field, String json, String expected) throws Exception {
        ObjectNode body = AccountBodies.account(field.equals("name") ? "placeholder" : "fresh");
        body.set(field, AdminClient.JSON.readTree(json));
        var created = admin.post("/accounts", body);
        if (created.status() == 201) {
            admin.delete("/accounts/" + created.id()); // frees the name for the update below
        }
        var updated = admin.put("/accounts/" + existingId, "{\"" + field + "\":" + json + "}");
        if (expected.equals(OK)) {
            assertEquals(201, created.status(), created.raw());
            assertEquals(200, updated.status(), updated.raw());
        } else {
            assertEquals(422, created.status(), created.raw());
            assertEquals(expected, created.errorCode(), created.raw());
            assertEquals(422, updated.status(), updated.raw());
            assertEquals(expected, updated.errorCode(), updated.raw());
        }
    }

    static List<Arguments> cases() {
        List<Arguments> c = new ArrayList<>();
        text(c, "name", "", "validation.name");
        text(c, "name", "   ", "validation.name");
        text(c, "name", "n".repeat(128), OK);
        text(c, "name", "n".repeat(129), "validation.name");
        raw(c, "name", "42", "validation.name");
        raw(c, "name", "null", "validation.name");
        text(c, "group", "no-such-group", "validation.group");
        raw(c, "group_id", "999999", "validation.group");
        raw(c, "group_id", "\"one\"", "validation.group");
        text(c, "platform", "azure", "validation.platform");
        text(c, "platform", "openai", OK);
        text(c, "base_url", "ftp://relay.example", "validation.base_url");
        text(c, "base_url", "relay.example", "validation.base_url");
        text(c, "base_url", "https://u:p@relay.example", "validation.base_url");
        text(c, "base_url", "https://relay.example/?q=1", "validation.base_url");
        text(c, "base_url", "https://relay.example/prefix/v1/", OK);
        text(c, "api_key", "", "validation.api_key");
        text(c, "api_key", "sk has space", "validation.api_key");
        text(c, "api_key", "k".repeat(1024), OK);
        text(c, "api_key", "k".repeat(1025), "validation.api_key");
        raw(c, "api_key", "123", "validation.api_key");
        bounds(c, "priority", -1000, 1000, "validation.priority");
        raw(c, "priority", "\"1\"", "validation.priority");
        raw(c, "priority", "1.5", "validation.priority");
        raw(c, "priority", "99999999999", "validation.priority");
        bounds(c, "weight", 1, 1000, "validation.weight");
        bounds(c, "max_in_flight", 0, 10000, "validation.max_in_flight");
        raw(c, "quota_remaining", "null", OK);
        raw(c, "quota_remaining", "0", OK);
        raw(c, "quota_remaining", "-1", "validation.quota_remaining");
        raw(c, "quota_remaining", "\"lots\"", "validation.quota_remaining");
        raw(c, "enabled", "\"yes\"", "validation.enabled");
        text(c, "notes", "x".repeat(10000), OK);
        text(c, "notes", "x".repeat(10001), "validation.notes");
        raw(c, "model_mappings", "[]", OK);
        raw(c, "model_mappings", "[{\"from\":\"*\",\"to\":\"*\"}]", OK);
        raw(c, "model_mappings", "[{\"from\":\"a\",\"to\":\"\"}]", "validation.model_mappings");
        raw(c, "model_mappings", "[{\"from\":\"a\",\"to\":\"*\"}]", "validation.model_mappings");
        // P-12: a prefix pattern ends in its only *; to is one upstream name or * (the requested name)
        raw(c, "model_mappings", "[{\"from\":\"claude-sonnet-*\",\"to\":\"claude-sonnet-4-5\"},"
                + "{\"from\":\"claude-*\",\"to\":\"*\"}]", OK);
        raw(c, "model_mappings", "[{\"from\":\"claude-*-x\",\"to\":\"b\"}]", "validation.model_mapping_wildcard");
        raw(c, "model_mappings", "[{\"from\":\"claude-*\",\"to\":\"up-*\"}]", "validation.model_mapping_wildcard");
        raw(c, "model_mappings", "[{\"from\":\"a\",\"to\":\"b\"},{\"from\":\"a\",\"to\":\"c\"}]", "validation.model_mappings");
        raw(c, "model_mappings", "\"a->b\"", "validation.model_mappings");
        raw(c, "model_mappings", "[{\"from\":1,\"to\":\"b\"}]", "validation.model_mappings");
        raw(c, "endpoint_families", "[\"chat_completions\",\"messages\"]", OK);
        raw(c, "endpoint_families", "null", OK);
        raw(c, "endpoint_families", "[]", "validation.endpoint_family");
        raw(c, "endpoint_families", "[\"teleport\"]", "validation.endpoint_family");
        // B-1: the native protocols, a subset of the three conversational ones (this account is openai-compatible)
        raw(c, "protocols", "[\"chat_completions\",\"messages\"]", OK);
        raw(c, "protocols", "null", OK);
        raw(c, "protocols", "[]", "validation.protocols");
        raw(c, "protocols", "[\"embeddings\"]", "validation.protocols");
        raw(c, "protocols", "[\"teleport\"]", "validation.protocols");
        raw(c, "protocols", "\"messages\"", "validation.protocols");
        failurePolicy(c, "retry_count", 0, 10);
        failurePolicy(c, "retry_interval_ms", 0, 60000);
        failurePolicy(c, "cooldown_seconds", 1, 86400);
        failurePolicy(c, "semantic_error_threshold", 1, 1000);
        failurePolicy(c, "retry_after_cap_seconds", 1, 86400);
        raw(c, "failure_policy", "{}", OK);
        raw(c, "failure_policy", "{\"retry_count\":\"2\"}", "validation.route_credential_failure_policy");
        raw(c, "failure_policy", "{\"cooldown_enabled\":1}", "validation.route_credential_failure_policy");
        raw(c, "failure_policy", "[]", "validation.route_credential_failure_policy");
        recovery(c);
        breaker(c);
        backoff(c);
        anthropicBeta(c);
        return c;
    }

    private static void anthropicBeta(List<Arguments> c) {
        String code = "validation.anthropic_beta";
        raw(c, "anthropic_beta", "{\"mode\":\"pass\"}", OK);
        raw(c, "anthropic_beta", "{\"mode\":\"strip_all\"}", OK);
        raw(c, "anthropic_beta", "{\"mode\":\"strip\",\"flags\":[\"context-1m-2025-08-07\"]}", OK);
        raw(c, "anthropic_beta", "{\"mode\":\"strip\",\"flags\":[\"" + "f".repeat(100) + "\"]}", OK);
        raw(c, "anthropic_beta", "{\"mode\":\"strip\",\"flags\":[\"" + "f".repeat(101) + "\"]}", code);
        raw(c, "anthropic_beta", "{\"mode\":\"strip\"}", code);
        raw(c, "anthropic_beta", "{\"mode\":\"strip\",\"flags\":[\"a,b\"]}", code);
        raw(c, "anthropic_beta", "{\"mode\":\"drop\"}", code);
        raw(c, "anthropic_beta", "{\"flags\":\"context-1m\"}", code);
        raw(c, "anthropic_beta", "\"strip_all\"", code);
    }

    private static void recovery(List<Arguments> c) {
        raw(c, "recovery", "{\"mode\":\"off\"}", OK);
        raw(c, "recovery", "{\"mode\":\"scheduled\",\"times\":[\"00:00\",\"23:59\"]}", OK);
        raw(c, "recovery", "{\"mode\":\"scheduled\",\"times\":[\"24:00\"]}", "validation.recovery_times");
        raw(c, "recovery", "{\"mode\":\"scheduled\",\"times\":[\"23:60\"]}", "validation.recovery_times");
        raw(c, "recovery", "{\"mode\":\"scheduled\",\"times\":[\"noon\"]}", "validation.recovery_times");
        raw(c, "recovery", "{\"mode\":\"scheduled\",\"times\":[4]}", "validation.recovery_times");
        raw(c, "recovery", "{\"mode\":\"scheduled\",\"times\":[]}", "validation.recovery_times_required");
        raw(c, "recovery", "{\"mode\":\"scheduled\"}", "validation.recovery_times_required");
        raw(c, "recovery", "{\"mode\":\"healthcheck\"}", OK);
        for (int[] b : new int[][] {{1, 0}, {1440, 1441}}) {
            raw(c, "recovery", "{\"mode\":\"healthcheck\",\"probe_interval_minutes\":" + b[0] + "}", OK);
            raw(c, "recovery", "{\"mode\":\"healthcheck\",\"probe_interval_minutes\":" + b[1] + "}",
                    "validation.recovery_probe_interval");
        }
        raw(c, "recovery", "{\"mode\":\"healthcheck\",\"probe_interval_minutes\":\"30\"}", "validation.recovery_probe_interval");
        raw(c, "recovery", "{\"mode\":\"sometimes\"}", "validation.recovery_mode");
    }

    private static void breaker(List<Arguments> c) {
        String code = "validation.breaker";
        raw(c, "breaker", "{\"enabled\":true}", OK);
        raw(c, "breaker", "{\"threshold\":1}", OK);
        raw(c, "breaker", "{\"threshold\":100}", OK);
        raw(c, "breaker", "{\"threshold\":0}", code);
        raw(c, "breaker", "{\"threshold\":101}", code);
        raw(c, "breaker", "{\"ladder_seconds\":[1]}", OK);
        raw(c, "breaker", "{\"ladder_seconds\":[604800]}", OK);
        raw(c, "breaker", "{\"ladder_seconds\":[0]}", code);
        raw(c, "breaker", "{\"ladder_seconds\":[604801]}", code);
        raw(c, "breaker", "{\"ladder_seconds\":[]}", code);
        raw(c, "breaker", "{\"ladder_seconds\":" + ladder(20) + "}", OK);
        raw(c, "breaker", "{\"ladder_seconds\":" + ladder(21) + "}", code);
        raw(c, "breaker", "{\"enabled\":\"on\"}", code);
    }

    private static void backoff(List<Arguments> c) {
        String code = "validation.backoff";
        raw(c, "backoff", "{\"mode\":\"exponential\"}", OK);
        raw(c, "backoff", "{\"mode\":\"linear\"}", code);
        raw(c, "backoff", "{\"base_seconds\":1}", OK);
        raw(c, "backoff", "{\"base_seconds\":86400}", OK);
        raw(c, "backoff", "{\"base_seconds\":0}", code);
        raw(c, "backoff", "{\"base_seconds\":86401}", code);
        raw(c, "backoff", "{\"cap_seconds\":604800}", OK);
        raw(c, "backoff", "{\"cap_seconds\":604801}", code);
        raw(c, "backoff", "{\"base_seconds\":600,\"cap_seconds\":600}", OK);
        raw(c, "backoff", "{\"base_seconds\":600,\"cap_seconds\":599}", code);
        raw(c, "backoff", "{\"base_seconds\":\"600\"}", code);
    }

    private static void failurePolicy(List<Arguments> c, String field, int min, int max) {
        String code = "validation.route_credential_failure_policy";
        raw(c, "failure_policy", "{\"" + field + "\":" + min + "}", OK);
        raw(c, "failure_policy", "{\"" + field + "\":" + max + "}", OK);
        raw(c, "failure_policy", "{\"" + field + "\":" + (min - 1) + "}", code);
        raw(c, "failure_policy", "{\"" + field + "\":" + (max + 1) + "}", code);
    }

    private static void bounds(List<Arguments> c, String field, int min, int max, String code) {
        raw(c, field, Integer.toString(min), OK);
        raw(c, field, Integer.toString(max), OK);
        raw(c, field, Integer.toString(min - 1), code);
        raw(c, field, Integer.toString(max + 1), code);
    }

    private static String ladder(int steps) {
        return IntStream.rangeClosed(1, steps).mapToObj(i -> Integer.toString(i * 60))
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static void text(List<Arguments> c, String field, String value, String expected) {
        raw(c, field, AdminClient.JSON.getNodeFactory().textNode(value).toString(), expected);
    }

    private static void raw(List<Arguments> c, String field, String json, String expected) {
        c.add(Arguments.of(field, json, expected));
    }
}
