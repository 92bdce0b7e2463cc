package dev.detour.server;

import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * refuses what no route of Detour's serves, before routing sees it. Path parameters
 * ({@code /metrics;x}) are dropped by servlet matching, so such a request reached the servlet a
 * proxy rule in front had meant to deny by path; TRACE echoes the request, session cookie
 * included. Jetty's URI compliance (set on the connector) already refuses encoded separators,
 * dot segments and the other ambiguous forms; this catches the ones it treats as legal.
 */
final class RequestGuard extends Handler.Wrapper {
    private static final Set<String> REFUSED_METHODS = Set.of("TRACE", "TRACK", "CONNECT");

    RequestGuard(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (REFUSED_METHODS.contains(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
            Response.writeError(request, response, callback, 405, "method not allowed");
            return true;
        }
        String path = request.getHttpURI().getPath();
        if (path != null && path.indexOf(';') >= 0) {
            Response.writeError(request, response, callback, 400, "path parameters are not accepted");
            return true;
        }
        return super.handle(request, response, callback);
    }
}
