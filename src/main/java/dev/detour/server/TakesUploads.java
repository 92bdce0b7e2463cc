package dev.detour.server;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A servlet that takes file uploads (multipart forms) says how large they may be. Servlets are registered by
 * hand here (no annotation scanning), so {@code @MultipartConfig} alone would not be seen.
 */
public interface TakesUploads {
    /** The limits, or null when this servlet takes no uploads. */
    MultipartConfigElement uploads();

    /**
     * Answers a multipart form the parser refused (a file or form over the limits, or a broken form) without acting
     * on it: the servlet's own page with a field-level refusal instead of the server's bare error.
     */
    void uploadRefused(HttpServletRequest request, HttpServletResponse response) throws IOException;

    /** Whether the request is a multipart form whose parts cannot be read within the servlet's limits. */
    static boolean refusedUpload(HttpServletRequest request) throws IOException {
        String type = request.getContentType();
        if (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/")) {
            return false;
        }
        try {
            request.getParts();
            return false;
        } catch (jakarta.servlet.ServletException | IllegalStateException e) {
            return true;
        }
    }
}
