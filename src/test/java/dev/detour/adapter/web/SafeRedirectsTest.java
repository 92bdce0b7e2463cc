package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.security.RedirectPayloads;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.FieldSource;

class SafeRedirectsTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "NULL", value = {
        "/accounts,             /accounts",
        "/accounts?status=error, /accounts?status=error",
        "/,                     /",
        "NULL,                  /",
        "'',                    /",
        "accounts,              /",
        "//evil.example/x,      /",
        "/\\evil.example,       /",
        "https://evil.example/, /",
        "javascript:alert(1),   /",
        "/%0d%0aSet-Cookie:x,   /%0d%0aSet-Cookie:x",
    })
    void onlyRelativePathsAreFollowed(String next, String expected) {
        assertEquals(expected, SafeRedirects.relativeOrHome(next));
    }

    @ParameterizedTest
    @CsvSource({"'/a\rb'", "'/a\nb'"})
    void pathsWithControlCharactersGoHome(String next) {
        assertEquals("/", SafeRedirects.relativeOrHome(next));
    }

    static final List<String> OFF_ORIGIN = RedirectPayloads.OFF_ORIGIN;
    static final List<String> SAME_ORIGIN = RedirectPayloads.SAME_ORIGIN;

    @ParameterizedTest
    @FieldSource("OFF_ORIGIN")
    void aTargetThatLeavesTheOriginAfterNormalisationGoesHome(String next) {
        assertEquals("/", SafeRedirects.relativeOrHome(next));
    }

    @ParameterizedTest
    @FieldSource("SAME_ORIGIN")
    void aSameOriginTargetStaysOnTheOrigin(String next) {
        assertTrue(RedirectPayloads.staysOn("http://127.0.0.1:8080", SafeRedirects.relativeOrHome(next)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/a/./b, /a/b", "/a/../keys, /keys", "/accounts/., /accounts/", "/a/%2e/b, /a/b"})
    void dotSegmentsAreRemovedBeforeTheTargetIsUsed(String next, String expected) {
        assertEquals(expected, SafeRedirects.relativeOrHome(next));
    }
}
