package dev.detour.adapter.web;

import dev.detour.core.ValidationException;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/** Query-parameter parsing for console filters: blank = absent, bad input = a validation error. */
final class Params {
    private Params() {
    }

    static String text(HttpServletRequest request, String name) {
        String value = request.getParameter(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    static Long number(HttpServletRequest request, String name) {
        String value = text(request, name);
        try {
            return value == null ? null : Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new ValidationException("validation." + name, name, name + " must be a number");
        }
    }

    /** An ISO instant ({@code 2026-11-29T10:00:00Z}) or an HTML datetime-local value, read as UTC. */
    static Instant time(HttpServletRequest request, String name) {
        String value = text(request, name);
        if (value == null) {
            return null;
        }
        try {
            return value.endsWith("Z") ? Instant.parse(value) : LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new ValidationException("validation." + name, name, name + " must be a date and time");
        }
    }
}
