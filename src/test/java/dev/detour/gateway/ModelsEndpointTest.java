package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** P-12: which model {@code GET /v1/models/{id}} asks about. */
class ModelsEndpointTest {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
            "/v1/models/claude-sonnet-4-5-20250929, claude-sonnet-4-5-20250929",
            "/v1/models/openai/gpt-5?x=1,          openai/gpt-5",
            "/v1/models/claude-x%5B1m%5D,           claude-x[1m]",
            "/v1/models/a+b,                        a+b",
            "/v1/models/%E6%A8%A1%E5%9E%8B,         模型",
            "/v1/models/100%,                       100%",
    })
    void theIdIsThePercentDecodedRestOfThePath(String path, String id) {
        assertEquals(id, ModelsEndpoint.requestedId(path));
    }

    @Test
    void theBarePathIsTheList() {
        assertNull(ModelsEndpoint.requestedId("/v1/models"));
        assertNull(ModelsEndpoint.requestedId("/v1/models?limit=20"));
        assertNull(ModelsEndpoint.requestedId("/v1/models/"));
    }
}
