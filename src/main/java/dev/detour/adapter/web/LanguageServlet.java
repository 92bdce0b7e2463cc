package dev.detour.adapter.web;

import dev.detour.adapter.view.Languages;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Duration;
import java.util.Locale;

/**
 * U-1 language switch: {@code /lang?l=zh|en&next=/path} remembers the choice in the
 * {@code detour_lang} cookie and returns to {@code next}. A plain link (GET) so it also works on
 * the sign-in page; it changes only the viewer's own display language, so it needs no CSRF token.
 */
public final class LanguageServlet extends HttpServlet {
    private static final int ONE_YEAR = (int) Duration.ofDays(365).toSeconds();

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) {
        Languages.byCode(request.getParameter("l")).ifPresent(locale -> response.addCookie(cookie(request, locale)));
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", SafeRedirects.relativeOrHome(request.getParameter("next")));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) {
        doGet(request, response);
    }

    private static Cookie cookie(HttpServletRequest request, Locale locale) {
        Cookie cookie = new Cookie(Languages.COOKIE, locale.getLanguage());
        cookie.setPath("/");
        cookie.setMaxAge(ONE_YEAR);
        cookie.setHttpOnly(true);
        cookie.setSecure(request.isSecure());
        cookie.setAttribute("SameSite", "Lax");
        return cookie;
    }
}
