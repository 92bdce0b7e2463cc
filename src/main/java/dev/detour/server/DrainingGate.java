package dev.detour.server;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;

/**
 * D-3 (O-5): counts the requests in flight so that a stop can wait for them, like Jetty's
 * {@link GracefulHandler}, but a request that arrives on a kept-alive connection while Detour drains
 * is not Jetty's bare 503: a proxy request goes on to the proxy servlet marked {@link #DRAINING}, which
 * refuses it in its protocol's envelope with {@code gateway.shutting_down} and logs its event (no
 * request goes unlogged); every such answer closes its connection, so the client reconnects — to
 * another instance behind nginx, or to this one once it is back. The refusal is counted like any
 * request, so the drain waits for its event to be handed over.
 */
public final class DrainingGate extends GracefulHandler {
    /** Request attribute: the request arrived after the drain began. */
    public static final String DRAINING = "detour.draining";
    private static final String PROXY_PATHS = "/v1/";

    DrainingGate(Handler handler) {
        super(handler);
    }

    @Override
    protected void handleShutdownRejection(Request request, Response response, Callback callback) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        Handler next = getHandler();
        if (next != null && request.getHttpURI().getPath().startsWith(PROXY_PATHS)) {
            request.setAttribute(DRAINING, Boolean.TRUE);
            try {
                if (next.handle(request, response, callback)) {
                    return;
                }
            } catch (Throwable failure) {
                callback.failed(failure);
                return;
            }
        }
        super.handleShutdownRejection(request, response, callback); // console, API, probes: a plain 503
    }
}
