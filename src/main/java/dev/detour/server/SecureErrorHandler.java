package dev.detour.server;

import java.nio.ByteBuffer;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own error pages (a refused URI, a 404 from {@code sendError}, a 405) carry the
 * same protective headers as the console's pages: a page that loads nothing, cannot be framed,
 * sniffed or cached. Used by the server (errors before routing) and the servlet context.
 */
final class SecureErrorHandler extends ErrorHandler {
    private static final String[][] HEADERS = {
        {"Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"},
        {"X-Frame-Options", "DENY"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "same-origin"},
        {"Cache-Control", "no-store"},
    };

    SecureErrorHandler() {
        setShowStacks(false);
        setShowCauses(false);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        addTo(response.getHeaders());
        return super.handle(request, response, callback);
    }

    /** Errors found while parsing (a bad request line, a refused URI) never reach {@link #handle}. */
    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        addTo(fields);
        return super.badMessageError(status, reason, fields);
    }

    private static void addTo(HttpFields.Mutable fields) {
        for (String[] header : HEADERS) {
            fields.put(header[0], header[1]);
        }
    }
}
