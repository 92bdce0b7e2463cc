package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.detour.core.account.BackoffPolicy;
import dev.detour.core.ValidationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class AccountRulesTest {
    @ParameterizedTest
    @CsvSource({
        "https://relay.example, https://relay.example",
        "https://relay.example/, https://relay.example",
        "https://relay.example/v1, https://relay.example",
        "https://relay.example/v1/, https://relay.example",
        "HTTPS://Relay.Example:8443/openai/v1, https://relay.example:8443/openai",
        "http://127.0.0.1:9000/prefix/, http://127.0.0.1:9000/prefix",
        "https://relay.example/v1beta, https://relay.example/v1beta"
    })
    void baseUrlIsOriginPlusPrefixWithoutTrailingSlashOrV1(String raw, String expected) {
        assertEquals(expected, AccountRules.baseUrl(raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "relay.example", "ftp://relay.example", "https://user:pw@relay.example",
        "https://relay.example/?a=1", "https://relay.example/#x", "https:///nohost", "not a url"})
    void badBaseUrlsAreRejected(String raw) {
        var e = assertThrows(ValidationException.class, () -> AccountRules.baseUrl(raw));
        assertEquals("validation.base_url", e.code());
    }

    @ParameterizedTest
    @CsvSource({"600, , 600, 7200", ", , 600, 7200", "10000, , 10000, 10000", "60, 60, 60, 60"})
    void backoffDefaultsNeverPutTheCapBelowTheBase(Integer base, Integer cap, int expectedBase, int expectedCap) {
        BackoffPolicy policy = BackoffPolicy.withDefaults(null, base, cap);
        assertEquals(expectedBase, policy.baseSeconds());
        assertEquals(expectedCap, policy.capSeconds());
    }
}
