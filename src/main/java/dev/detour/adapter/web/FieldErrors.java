package dev.detour.adapter.web;

import dev.detour.adapter.view.ConsoleMessages;
import dev.detour.adapter.view.Languages;
import dev.detour.admin.ConflictException;
import dev.detour.core.ValidationException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;

/** A validation error as the console shows it next to its input: localized code text plus the detail. */
final class FieldErrors {
    private FieldErrors() {
    }

    static Map<String, String> of(HttpServletRequest request, ValidationException e) {
        String field = e.field() == null ? "_form" : e.field();
        String text = ConsoleMessages.pattern(Languages.resolve(request), "err." + e.code())
                .map(p -> p + " — " + e.getMessage()).orElse(e.getMessage());
        return Map.of(field, text);
    }

    static Map<String, String> of(HttpServletRequest request, ConflictException e) {
        String text = ConsoleMessages.pattern(Languages.resolve(request), "err." + e.code())
                .map(p -> p + " — " + e.getMessage()).orElse(e.getMessage());
        return Map.of(e.field() == null ? "_form" : e.field(), text);
    }

    static String actor(ConsoleSessionAuth auth, HttpServletRequest request) {
        return auth.signedInUser(request).orElse("console");
    }
}
