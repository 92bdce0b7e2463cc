package dev.detour.adapter.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * /assets/*: the console's static files from the class path, an allow-list read once at start
 * (htmx 1.9.12 from its webjar: the 2.x line does not parse in HtmlUnit).
 */
public final class AssetsServlet extends HttpServlet {
    private record Asset(byte[] bytes, String contentType) {
    }

    private static final Map<String, String[]> FILES = Map.of(
            "/htmx.min.js", new String[] {"META-INF/resources/webjars/htmx.org/1.9.12/dist/htmx.min.js",
                "text/javascript;charset=utf-8"},
            "/console.css", new String[] {"static/console.css", "text/css;charset=utf-8"},
            "/console.js", new String[] {"static/console.js", "text/javascript;charset=utf-8"},
            "/local-time.js", new String[] {"static/local-time.js", "text/javascript;charset=utf-8"});

    private final Map<String, Asset> assets;

    public AssetsServlet() {
        this.assets = Map.copyOf(FILES.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> load(e.getValue()))));
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Asset asset = request.getPathInfo() == null ? null : assets.get(request.getPathInfo());
        if (asset == null) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        response.setContentType(asset.contentType());
        response.setHeader("Cache-Control", "public, max-age=3600");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentLength(asset.bytes().length);
        response.getOutputStream().write(asset.bytes());
    }

    private static Asset load(String[] file) {
        try (InputStream in = AssetsServlet.class.getClassLoader().getResourceAsStream(file[0])) {
            if (in == null) {
                throw new IllegalStateException("console asset missing from the class path: " + file[0]);
            }
            return new Asset(in.readAllBytes(), file[1]);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
