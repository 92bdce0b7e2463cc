package dev.detour.adapter.upstream;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.HeaderPolicy;
import java.util.List;

/**
 * The bytes of an upstream request's head (RFC 9112 §3): request line, {@code Host}, the request's own end-to-end
 * headers, {@code Content-Length} when it has a body. Host and Content-Length come from the URL and the body, never
 * from the headers given (duplicates are a protocol error); hop-by-hop headers are dropped; a {@code User-Agent}
 * when the request has none. A line break or other
 * vertical whitespace in a value becomes a space, so no value can start a header of its own; characters beyond
 * ISO-8859-1 become '?'.
 */
final class RequestHead {
    /**
     * Sent when the client named none (P-2 passes the client's own on): some relays' firewalls refuse a request
     * without one.
     */
    static final String USER_AGENT = "Detour";

    private RequestHead() {
    }

    static byte[] encode(String method, UpstreamUris.Target target, List<Header> headers, byte[] body) {
        StringBuilder head = new StringBuilder(256 + 64 * headers.size());
        head.append(method).append(' ').append(target.requestTarget()).append(" HTTP/1.1\r\n");
        field(head, "Host", target.host());
        boolean named = false;
        for (Header header : headers) {
            if (isForwardable(header.name())) {
                field(head, header.name(), header.value());
                named |= header.name().equalsIgnoreCase("user-agent");
            }
        }
        if (!named) {
            field(head, "User-Agent", USER_AGENT);
        }
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        int length = head.length();
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            char c = head.charAt(i);
            bytes[i] = c <= 0xff ? (byte) c : (byte) '?';
        }
        return bytes;
    }

    static boolean isForwardable(String name) {
        return !HeaderPolicy.isHopByHop(name) && !name.equalsIgnoreCase("host")
                && !name.equalsIgnoreCase("content-length");
    }

    private static void field(StringBuilder head, String name, String value) {
        appendClean(head, name);
        head.append(": ");
        appendClean(head, value);
        head.append("\r\n");
    }

    private static void appendClean(StringBuilder head, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            head.append(c == '\r' || c == '\n' || c == '\f' || c == 0x0b || c == 0 ? ' ' : c);
        }
    }
}
