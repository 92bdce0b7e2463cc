package dev.detour.adapter.proxy;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.server.front.FrontExchange;
import dev.detour.server.front.FrontHandler;
import dev.detour.server.front.RequestHead;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/** The front ↔ {@link Relay}: the relay's paths for the requests the front reads itself. No policy lives here. */
public final class RelayOnFront implements FrontHandler {
    private final Relay relay;
    private final TrustedProxies clientAddress;

    public RelayOnFront(Relay relay, TrustedProxies clientAddress) {
        this.relay = relay;
        this.clientAddress = clientAddress;
    }

    @Override
    public boolean serves(String path) {
        return Relay.relays(path);
    }

    @Override
    public void serve(FrontExchange exchange) {
        relay.serve(new OnFront(exchange));
    }

    private final class OnFront implements RelayExchange {
        private final FrontExchange exchange;
        private final RequestHead head;

        OnFront(FrontExchange exchange) {
            this.exchange = exchange;
            this.head = exchange.head();
        }

        @Override
        public String method() {
            return head.method();
        }

        @Override
        public String path() {
            return head.path();
        }

        @Override
        public String query() {
            return head.query();
        }

        @Override
        public String header(String name) {
            return head.header(name);
        }

        @Override
        public List<Header> headers() {
            List<Header> headers = new ArrayList<>(head.headerCount());
            for (int i = 0; i < head.headerCount(); i++) {
                headers.add(new Header(head.name(i), head.value(i)));
            }
            return headers;
        }

        @Override
        public long contentLength() {
            return Math.max(0, head.contentLength());
        }

        @Override
        public String clientIp() {
            String peer = exchange.peer();
            if (head.header("X-Forwarded-For") == null) {
                return peer; // nothing to believe: the common case costs one header lookup
            }
            List<String> forwardedFor = new ArrayList<>(1);
            for (int i = 0; i < head.headerCount(); i++) {
                if (head.name(i).equalsIgnoreCase("X-Forwarded-For")) {
                    forwardedFor.add(head.value(i));
                }
            }
            return clientAddress.clientIp(peer, forwardedFor);
        }

        @Override
        public boolean draining() {
            return exchange.draining();
        }

        @Override
        public InputStream body() {
            return exchange.body();
        }

        @Override
        public void answerHeader(String name, String value) {
            exchange.answerHeader(name, value);
        }

        @Override
        public void discardUnreadBodyOrClose() {
            exchange.discardUnreadBodyOrClose();
        }

        @Override
        public void admitted() {
            exchange.admitted();
        }

        @Override
        public void asksForStream() {
            exchange.asksForStream();
        }

        @Override
        public ResponseSink sink() {
            return exchange.sink();
        }
    }
}
