package dev.detour.adapter.view;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * U-1 console language: the {@code detour_lang} cookie when set, else {@code Accept-Language}
 * (zh for any {@code zh*} first choice, else en).
 */
public final class Languages {
    public static final String COOKIE = "detour_lang";
    public static final Locale ZH = Locale.CHINESE;
    public static final Locale EN = Locale.ENGLISH;

    private Languages() {
    }

    public static Locale resolve(HttpServletRequest request) {
        return fromCookie(request).orElseGet(() -> fromAcceptLanguage(request.getHeader("Accept-Language")));
    }

    /** The supported locale named by a code ("zh", "en"), if any. */
    public static Optional<Locale> byCode(String code) {
        if ("zh".equals(code)) {
            return Optional.of(ZH);
        }
        return "en".equals(code) ? Optional.of(EN) : Optional.empty();
    }

    static Locale fromAcceptLanguage(String header) {
        if (header == null || header.isBlank()) {
            return EN;
        }
        try {
            List<Locale.LanguageRange> ranges = Locale.LanguageRange.parse(header);
            return ranges.stream()
                    .map(Locale.LanguageRange::getRange)
                    .filter(r -> !r.equals("*"))
                    .findFirst()
                    .map(r -> r.startsWith("zh") ? ZH : EN)
                    .orElse(EN);
        } catch (IllegalArgumentException e) {
            return EN;
        }
    }

    private static Optional<Locale> fromCookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies == null) {
            return Optional.empty();
        }
        for (Cookie cookie : cookies) {
            if (COOKIE.equals(cookie.getName())) {
                return byCode(cookie.getValue());
            }
        }
        return Optional.empty();
    }
}
