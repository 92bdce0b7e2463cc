package dev.detour.adapter.view;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.thymeleaf.TemplateEngine;
import org.thymeleaf.context.WebContext;
import org.thymeleaf.templatemode.TemplateMode;
import org.thymeleaf.templateresolver.ClassLoaderTemplateResolver;
import org.thymeleaf.web.servlet.JakartaServletWebApplication;

/**
 * Thymeleaf without Spring, page-or-fragment: an htmx request ({@code HX-Request: true}) gets the
 * named {@code th:fragment} of the page, any other request the whole page. Every page sees
 * {@code lang}, {@code user}, {@code nav}, {@code requestPath} and, once a session exists,
 * {@code csrfToken} and {@code csrfHeaders} (the JSON for {@code hx-headers}).
 */
public final class View {
    /** The request attribute holding the start of a database outage (an {@link java.time.Instant}), if one is on. */
    public static final String DATABASE_UNAVAILABLE_SINCE = "detour.databaseUnavailableSince";
    private final TemplateEngine engine;
    private final PageSession auth;
    private final ConsoleNav nav;
    private volatile JakartaServletWebApplication application;

    public View(PageSession auth, ConsoleNav nav) {
        this.auth = auth;
        this.nav = nav;
        ClassLoaderTemplateResolver resolver = new ClassLoaderTemplateResolver(View.class.getClassLoader());
        resolver.setPrefix("templates/");
        resolver.setSuffix(".html");
        resolver.setTemplateMode(TemplateMode.HTML);
        resolver.setCharacterEncoding("UTF-8");
        resolver.setCacheable(true);
        this.engine = new TemplateEngine();
        engine.setTemplateResolver(resolver);
        engine.setMessageResolver(new BundleMessageResolver());
    }

    public static boolean isHtmx(HttpServletRequest request) {
        return "true".equals(request.getHeader("HX-Request"));
    }

    /** Renders {@code templates/<template>.html}, or only its {@code fragment} for htmx requests. */
    public void render(HttpServletRequest request, HttpServletResponse response, String template,
            Map<String, Object> model, String fragmentOrNull) throws IOException {
        Locale locale = Languages.resolve(request);
        WebContext context = new WebContext(application(request).buildExchange(request, response), locale,
                pageModel(request, locale, model));
        response.setCharacterEncoding("UTF-8");
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Vary", "HX-Request, Accept-Language, Cookie");
        SecurityHeaders.apply(response);
        if (fragmentOrNull != null && isHtmx(request)) {
            engine.process(template, Set.of(fragmentOrNull), context, response.getWriter());
        } else {
            engine.process(template, context, response.getWriter());
        }
    }

    private Map<String, Object> pageModel(HttpServletRequest request, Locale locale, Map<String, Object> model) {
        Map<String, Object> variables = new HashMap<>(model);
        variables.put("lang", locale.getLanguage());
        variables.put("user", auth.signedInUser(request).orElse(null));
        variables.put("nav", nav.items());
        variables.put("requestPath", requestPath(request));
        // D-1: the layout's banner while MariaDB does not answer
        variables.put("databaseUnavailableSince", request.getAttribute(DATABASE_UNAVAILABLE_SINCE));
        auth.existingCsrfToken(request).ifPresent(token -> {
            variables.put("csrfToken", token);
            variables.put("csrfHeaders", "{\"" + PageSession.CSRF_HEADER + "\":\"" + token + "\"}");
        });
        return variables;
    }

    /** The path and query of this request: where the language switch and sign-in come back to. */
    public static String requestPath(HttpServletRequest request) {
        String query = request.getQueryString();
        return request.getRequestURI() + (query == null ? "" : "?" + query);
    }

    private JakartaServletWebApplication application(HttpServletRequest request) {
        if (application == null) {
            application = JakartaServletWebApplication.buildApplication(request.getServletContext());
        }
        return application;
    }
}
