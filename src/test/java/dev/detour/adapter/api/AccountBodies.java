package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Valid request bodies for tests (the SPEC §9 contract example), changed per test. */
final class AccountBodies {
    static final String API_KEY = "sk-test-PLAINTEXT-0123456789abcd";

    private AccountBodies() {
    }

    static ObjectNode group(String name) {
        return AdminClient.JSON.createObjectNode().put("name", name).put("ratio_ppm", 500000)
                .put("color", "#3b82f6").put("halt_policy", "off");
    }

    static ObjectNode account(String name) {
        ObjectNode o = AdminClient.JSON.createObjectNode().put("name", name).put("group", "cheap")
                .put("platform", "openai-compatible").put("base_url", "https://relay.example/v1/")
                .put("api_key", API_KEY);
        ArrayNode mappings = o.putArray("model_mappings");
        mappings.addObject().put("from", "gpt-5.6-sol").put("to", "upstream-sol");
        mappings.addObject().put("from", "glm-5.3").put("to", "upstream-glm");
        o.put("priority", 0).put("weight", 10).put("enabled", true).put("max_in_flight", 0);
        o.putObject("failure_policy").put("retry_count", 2).put("retry_interval_ms", 200)
                .put("cooldown_enabled", true).put("cooldown_seconds", 10).put("semantic_error_threshold", 10)
                .put("error_status_enabled", true).put("honor_retry_after", true).put("retry_after_cap_seconds", 1800);
        o.putObject("recovery").put("mode", "scheduled").putArray("times").add("04:05");
        ObjectNode breaker = o.putObject("breaker").put("enabled", false).put("threshold", 3);
        breaker.putArray("ladder_seconds").add(1800).add(3600).add(7200).add(21600);
        o.putObject("backoff").put("mode", "fixed").put("base_seconds", 600).put("cap_seconds", 7200);
        return o;
    }
}
