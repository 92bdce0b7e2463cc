package dev.detour.server;

import jakarta.servlet.MultipartConfigElement;

/**
 * A servlet that takes file uploads (multipart forms) says how large they may be. Servlets are registered by
 * hand here (no annotation scanning), so {@code @MultipartConfig} alone would not be seen.
 */
public interface TakesUploads {
    /** The limits, or null when this servlet takes no uploads. */
    MultipartConfigElement uploads();
}
