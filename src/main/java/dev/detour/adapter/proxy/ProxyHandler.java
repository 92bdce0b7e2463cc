package dev.detour.adapter.proxy;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.server.AnswerIdle;
import dev.detour.server.DrainingGate;
import dev.detour.server.UnreadBody;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty ↔ {@link Relay} for every path under {@code /v1} but the key holders' own {@code /v1/detour}: the
 * requests Jetty reads (all of them without the front, and those outside the front's subset with it). No
 * policy lives here.
 *
 * <p>A core handler, not a servlet: the servlet layer's request and response wrappers, its dispatch and its
 * output stream's own buffer and lock cost a tenth of a bare forwarder's throughput on this stack (session 38)
 * and sat on every relayed frame; the console and the APIs stay servlets. Other paths are declined (false).
 */
public final class ProxyHandler extends Handler.Abstract {
    private final Relay relay;
    private final TrustedProxies clientAddress;

    public ProxyHandler(Relay relay, TrustedProxies clientAddress) {
        this.relay = relay;
        this.clientAddress = clientAddress;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (!Relay.relays(path)) {
            return false;
        }
        JettyResponseSink sink = new JettyResponseSink(request, response, callback);
        RequestBody body = new RequestBody(request);
        JettyExchange exchange = new JettyExchange(request, response, path, body, sink);
        try {
            relay.serve(exchange);
        } finally {
            body.release();
            exchange.lowerAgain();
        }
        sink.complete();
        return true;
    }

    /** A request Jetty read, its answer through Jetty's core response. */
    private final class JettyExchange implements RelayExchange {
        private final Request request;
        private final Response response;
        private final String path;
        private final RequestBody body;
        private final JettyResponseSink sink;
        private int loweredPriority; // 0: not raised

        JettyExchange(Request request, Response response, String path, RequestBody body, JettyResponseSink sink) {
            this.request = request;
            this.response = response;
            this.path = path;
            this.body = body;
            this.sink = sink;
        }

        @Override
        public String method() {
            return request.getMethod();
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public String query() {
            return request.getHttpURI().getQuery();
        }

        @Override
        public String header(String name) {
            return request.getHeaders().get(name);
        }

        @Override
        public List<Header> headers() {
            List<Header> headers = new ArrayList<>(request.getHeaders().size());
            for (HttpField field : request.getHeaders()) {
                headers.add(new Header(field.getName(), field.getValue()));
            }
            return headers;
        }

        @Override
        public long contentLength() {
            return request.getLength();
        }

        @Override
        public String clientIp() {
            return clientAddress.of(request);
        }

        @Override
        public boolean draining() {
            return request.getAttribute(DrainingGate.DRAINING) != null;
        }

        @Override
        public InputStream body() {
            return body;
        }

        @Override
        public void answerHeader(String name, String value) {
            response.getHeaders().put(name, value);
        }

        @Override
        public void discardUnreadBodyOrClose() {
            UnreadBody.discardOrClose(request, response, body);
        }

        @Override
        public void admitted() {
            AnswerIdle.extend(request);
        }

        @Override
        public void asksForStream() {
            // N-7, as the front's connection threads (FrontConnection.relayingAsItComes): Java 17's request threads
            // run at the lowest priority for the event writer's sake; a stream's relay is work a client waits for
            Thread thread = Thread.currentThread();
            if (thread.getPriority() < Thread.NORM_PRIORITY) {
                loweredPriority = thread.getPriority();
                thread.setPriority(Thread.NORM_PRIORITY);
            }
        }

        /** The pooled thread goes back to its own priority for the next request it serves. */
        void lowerAgain() {
            if (loweredPriority != 0) {
                Thread.currentThread().setPriority(loweredPriority);
                loweredPriority = 0;
            }
        }

        @Override
        public ResponseSink sink() {
            return sink;
        }
    }
}
