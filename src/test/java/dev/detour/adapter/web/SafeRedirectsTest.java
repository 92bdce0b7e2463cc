package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
}
