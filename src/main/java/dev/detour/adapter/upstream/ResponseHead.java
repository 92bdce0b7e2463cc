package dev.detour.adapter.upstream;

import dev.detour.gateway.port.Header;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An upstream answer's status line and header fields (RFC 9112 §4–5), interim 1xx answers skipped. A connection that
 * ends before the answer's first byte answered nothing ({@link Http1Failure.NoAnswer}: a keep-alive connection the
 * upstream closed as the request went out); one that ends inside the head is a broken connection
 * ({@link Http1Failure.ClosedEarly}), never an answer with an empty body (D-6).
 */
record ResponseHead(int status, boolean http11, List<Header> headers) {
    /** Longer header lines pass (a relay's long cookies or trace headers); this only bounds a runaway. */
    static final int MAX_LINE = 256 * 1024;
    static final int MAX_FIELDS = 500;

    static ResponseHead read(ReadBuffer in) throws IOException {
        boolean first = true;
        for (;;) {
            String statusLine = line(in);
            if (statusLine == null) {
                if (first) {
                    throw new Http1Failure.NoAnswer("the upstream closed the connection without answering");
                }
                throw new Http1Failure.ClosedEarly("the upstream closed the connection after an interim answer");
            }
            first = false;
            ResponseHead head = new ResponseHead(statusOf(statusLine), statusLine.startsWith("HTTP/1.1"),
                    fields(in));
            if (head.status >= 200 || head.status == 101) {
                return head;
            }
        }
    }

    /** The first value of a field, by name in any case; null when absent. */
    String first(String name) {
        return first(headers, name);
    }

    /** The first value of a field among {@code fields}, by name in any case; null when absent. */
    static String first(List<Header> fields, String name) {
        for (Header header : fields) {
            if (header.name().equalsIgnoreCase(name)) {
                return header.value();
            }
        }
        return null;
    }

    /** Whether the connection may carry another exchange after this answer (RFC 9112 §9.3). */
    boolean keepsAlive() {
        List<String> tokens = connectionTokens();
        return !tokens.contains("close") && (http11 || tokens.contains("keep-alive"));
    }

    /** The field names the Connection field lists (RFC 9110 §7.6.1: hop-by-hop as well), lower case. */
    List<String> connectionTokens() {
        List<String> tokens = new ArrayList<>(0);
        for (Header header : headers) {
            if (header.name().equalsIgnoreCase("Connection")) {
                for (String token : header.value().split(",")) {
                    tokens.add(token.trim().toLowerCase(Locale.ROOT));
                }
            }
        }
        return tokens;
    }

    /** A line of the head: a cut one means a broken connection, named as such. */
    private static String line(ReadBuffer in) throws IOException {
        try {
            return in.line(MAX_LINE);
        } catch (Http1Failure.ClosedEarly e) {
            throw new Http1Failure.ClosedEarly("the upstream closed the connection inside the response head");
        }
    }

    private static int statusOf(String line) throws Http1Failure.Malformed {
        // HTTP-version SP 3DIGIT [SP reason]
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' '
                || line.length() > 12 && line.charAt(12) != ' ') {
            throw new Http1Failure.Malformed("invalid status line from the upstream");
        }
        int status = 0;
        for (int i = 9; i < 12; i++) {
            char c = line.charAt(i);
            if (c < '0' || c > '9') {
                throw new Http1Failure.Malformed("invalid status code from the upstream");
            }
            status = status * 10 + (c - '0');
        }
        if (status < 100) {
            throw new Http1Failure.Malformed("invalid status code from the upstream");
        }
        return status;
    }

    private static List<Header> fields(ReadBuffer in) throws IOException {
        List<Header> fields = new ArrayList<>(16);
        for (;;) {
            String line = line(in);
            if (line == null) {
                throw new Http1Failure.ClosedEarly("the upstream closed the connection inside the response head");
            }
            if (line.isEmpty()) {
                return fields;
            }
            if ((line.charAt(0) == ' ' || line.charAt(0) == '\t') && !fields.isEmpty()) { // obsolete line folding
                Header last = fields.remove(fields.size() - 1);
                fields.add(new Header(last.name(), last.value() + " " + line.strip()));
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || line.charAt(colon - 1) == ' ' || line.charAt(colon - 1) == '\t') {
                throw new Http1Failure.Malformed("invalid header line from the upstream");
            }
            if (fields.size() >= MAX_FIELDS) {
                throw new Http1Failure.Malformed("more than " + MAX_FIELDS + " header fields from the upstream");
            }
            fields.add(new Header(line.substring(0, colon), line.substring(colon + 1).strip()));
        }
    }
}
