package dev.detour.server.front;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads a request head the front may serve itself, and refuses every other one. The front answers the
 * relay's plain requests on a thread per connection and hands any other connection, with the bytes it
 * already read, to Jetty, which knows the whole protocol and gives the proper answer or error. So this
 * parser need not (and must not try to) understand HTTP/1.1: it accepts only a strict subset that every
 * strict server reads the same way, which is what coding agents and SDKs send. Where two servers could
 * disagree (a bare LF, obs-fold, a second Host or Content-Length, Transfer-Encoding, {@code %} or dot
 * segments in the path) the head is {@link NotServed} rather than guessed at, so the front can neither be
 * smuggled a request behind another nor route a path that Jetty's URI rules would read differently.
 *
 * <p>The subset: {@code GET} or {@code POST}, one SP, an origin-form target (path characters
 * {@code A-Z a-z 0-9 - . _ ~ ! $ & ' ( ) * + , = : @ /} with no empty or dot segment, then optionally
 * {@code ?} and a query of those characters, {@code ?} and {@code %XX}), one SP, {@code HTTP/1.1}, CRLF;
 * then up to {@value #MAX_HEADERS} lines of a token name, {@code :}, and a visible-ASCII value; CRLF
 * only; exactly one Host; a Content-Length of 1-18 digits at most once (required for POST, 0 if any for
 * GET); no Transfer-Encoding, Expect or TE; a Connection of only {@code keep-alive} and {@code close};
 * the whole head within {@value #MAX_HEAD} bytes. One exception: an offer of h2c (exactly {@code Upgrade: h2c},
 * one {@code HTTP2-Settings} of base64url characters, and a Connection naming {@code Upgrade} and
 * {@code HTTP2-Settings} besides those two) is served as the HTTP/1.1 request it also is, the offer
 * declined by answering in HTTP/1.1 (RFC 9110 §7.8 and RFC 7540 §3.2: a server may ignore it), as Jetty
 * here does; the three headers are dropped from the head. The JDK's {@code HttpClient} sends that offer on
 * every new plain connection, so without it every such client would take the hand-off. Any other Upgrade,
 * or a part of the offer without the rest, is Jetty's.
 *
 * <p>Called on every request: it scans the bytes once with table lookups and makes Strings only for the
 * parts a head hands out.
 */
public final class RequestHeadParser {
    /** Jetty's request header size here: a head Jetty would refuse as too large is not the front's either. */
    public static final int MAX_HEAD = 8 * 1024;
    /** More header lines than any client of the relay sends; the rest is Jetty's to judge. */
    static final int MAX_HEADERS = 100;

    /** Outside the subset (or malformed): the connection goes to Jetty. Stackless, as it is a routing answer. */
    public static final class NotServed extends Exception {
        private static final long serialVersionUID = 1L;

        NotServed(String reason) {
            super(reason, null, false, false);
        }
    }

    // character classes, indexed by the unsigned byte; everything at 0x80 and above is in none
    private static final byte PATH = 1;
    private static final byte QUERY = 2;
    private static final byte TOKEN = 4;
    private static final byte HEX = 8;
    private static final byte BASE64URL = 16;
    private static final byte[] CLASS = new byte[256];

    static {
        mark(PATH | QUERY, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,=:@/");
        mark(QUERY, "?"); // '%' is checked apart: only as %XX
        mark(TOKEN, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~");
        mark(HEX, "0123456789ABCDEFabcdef");
        mark(BASE64URL, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
    }

    private static void mark(int bits, String chars) {
        for (int i = 0; i < chars.length(); i++) {
            CLASS[chars.charAt(i)] |= (byte) bits;
        }
    }

    private static final byte[] GET = ascii("GET ");
    private static final byte[] POST = ascii("POST ");
    private static final byte[] VERSION = ascii(" HTTP/1.1\r\n");
    // header names the subset cares about, lower case
    private static final byte[] HOST = ascii("host");
    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] EXPECT = ascii("expect");
    private static final byte[] UPGRADE = ascii("upgrade");
    private static final byte[] HTTP2_SETTINGS = ascii("http2-settings");
    private static final byte[] TE = ascii("te");
    private static final byte[] CLOSE = ascii("close");
    private static final byte[] KEEP_ALIVE = ascii("keep-alive");
    private static final byte[] H2C = ascii("h2c");

    // what a Connection value names besides keep-alive
    private static final int CONNECTION_CLOSE = 1;
    private static final int CONNECTION_UPGRADE = 2;
    private static final int CONNECTION_SETTINGS = 4;

    /** A Content-Length of more digits could overflow a long; no relay body comes near 18. */
    private static final int MAX_LENGTH_DIGITS = 18;

    private RequestHeadParser() {
    }

    /**
     * Parses the head that starts at {@code bytes[from]} with valid data up to {@code bytes[to)} (exclusive).
     *
     * @return the head when a whole one (ending CRLF CRLF) is there; null when there is not yet a whole head
     *         and fewer than {@link #MAX_HEAD} bytes are there (read more, then call again from the same
     *         {@code from})
     * @throws NotServed when the head is outside the subset, malformed, or no whole head within
     *         {@link #MAX_HEAD} bytes
     */
    public static RequestHead parse(byte[] bytes, int from, int to) throws NotServed {
        Objects.checkFromToIndex(from, to, bytes.length);
        // find the end first: a partial head is not judged, so a head read in pieces costs one parse
        int end = headEnd(bytes, from, from + Math.min(to - from, MAX_HEAD));
        if (end < 0) {
            if (to - from >= MAX_HEAD) {
                throw new NotServed("no whole head within " + MAX_HEAD + " bytes");
            }
            return null;
        }
        return parseHead(bytes, from, end);
    }

    /** The index just past the first CRLF CRLF in [from, limit), or -1. */
    private static int headEnd(byte[] bytes, int from, int limit) {
        for (int i = from + 3; i < limit; i++) {
            if (bytes[i] == '\n' && bytes[i - 1] == '\r' && bytes[i - 2] == '\n' && bytes[i - 3] == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    /*
     * Every scan below stops at a CR at the latest (no class holds CR or LF), and the head ends with CR LF
     * CR LF at end - 4, so no index reaches end: the bounds need no check of their own.
     */
    private static RequestHead parseHead(byte[] bytes, int from, int end) throws NotServed {
        int p = from;
        String method;
        if (startsWith(bytes, p, end, GET)) {
            method = "GET";
        } else if (startsWith(bytes, p, end, POST)) {
            method = "POST";
        } else {
            throw new NotServed("method not GET or POST");
        }
        p += method.length() + 1;

        if (bytes[p] != '/') {
            throw new NotServed("target not in origin form");
        }
        int pathStart = p;
        int segment = ++p;
        for (;; p++) {
            int b = bytes[p] & 0xFF;
            if (b == '/') {
                if (p == segment) {
                    throw new NotServed("empty path segment");
                }
                checkNotDots(bytes, segment, p);
                segment = p + 1;
            } else if ((CLASS[b] & PATH) == 0) {
                break;
            }
        }
        checkNotDots(bytes, segment, p); // the last segment may be empty: "/" and "/v1/" are fine
        String path = string(bytes, pathStart, p);

        String query = null;
        if (bytes[p] == '?') {
            int queryStart = ++p;
            for (;; p++) {
                int b = bytes[p] & 0xFF;
                if (b == '%') {
                    // p + 2 < end: bytes[p] is neither CR nor LF, so the final CR LF CR LF is still ahead
                    if ((CLASS[bytes[p + 1] & 0xFF] & HEX) == 0 || (CLASS[bytes[p + 2] & 0xFF] & HEX) == 0) {
                        throw new NotServed("bad %-escape in query");
                    }
                    p += 2;
                } else if ((CLASS[b] & QUERY) == 0) {
                    break;
                }
            }
            query = string(bytes, queryStart, p);
        }

        if (bytes[p] != ' ') {
            throw new NotServed("character outside the subset in the target"); // '#', '%', ';', CR, LF, ...
        }
        // covers a second SP, a version other than HTTP/1.1 and a bare CR or LF
        if (!startsWith(bytes, p, end, VERSION)) {
            throw new NotServed("request line not <method> SP <target> SP HTTP/1.1 CRLF");
        }
        p += VERSION.length;

        String[] names = new String[16];
        String[] values = new String[16];
        int count = 0;
        int hosts = 0;
        int lengths = 0;
        long contentLength = -1;
        int connection = 0;
        int upgrades = 0;
        int settings = 0;
        int headersEnd = end - 2; // where the empty line's CRLF starts
        while (p < headersEnd) {
            if (count == MAX_HEADERS) {
                throw new NotServed("more than " + MAX_HEADERS + " header lines");
            }
            int nameStart = p;
            while ((CLASS[bytes[p] & 0xFF] & TOKEN) != 0) {
                p++;
            }
            int nameEnd = p;
            // a line starting with SP or HTAB (obs-fold), an empty name, a space before the colon, a non-token
            if (nameEnd == nameStart || bytes[p] != ':') {
                throw new NotServed("header line not <token>:<value>");
            }
            p++;
            while (bytes[p] == ' ' || bytes[p] == '\t') {
                p++;
            }
            int valueStart = p;
            int valueEnd = p;
            for (;; p++) {
                int b = bytes[p] & 0xFF;
                if (b > 0x20 && b < 0x7F) {
                    valueEnd = p + 1;
                } else if (b != ' ' && b != '\t') {
                    break;
                }
            }
            // a control byte, DEL or non-ASCII in the value, or a bare CR
            if (bytes[p] != '\r' || bytes[p + 1] != '\n') {
                throw new NotServed("header value not visible ASCII up to CRLF");
            }
            p += 2;

            int nameLength = nameEnd - nameStart;
            if (nameIs(bytes, nameStart, nameLength, HOST)) {
                hosts++;
            } else if (nameIs(bytes, nameStart, nameLength, CONTENT_LENGTH)) {
                lengths++;
                contentLength = digits(bytes, valueStart, valueEnd);
            } else if (nameIs(bytes, nameStart, nameLength, CONNECTION)) {
                connection |= connectionOptions(bytes, valueStart, valueEnd);
            } else if (nameIs(bytes, nameStart, nameLength, UPGRADE)) {
                if (!nameIs(bytes, valueStart, valueEnd - valueStart, H2C)) {
                    throw new NotServed("Upgrade other than h2c"); // websocket and the rest: Jetty's
                }
                if (++upgrades > 1) {
                    throw new NotServed("more than one Upgrade");
                }
                continue; // declined by answering in HTTP/1.1; nothing past this hop may see it
            } else if (nameIs(bytes, nameStart, nameLength, HTTP2_SETTINGS)) {
                checkBase64Url(bytes, valueStart, valueEnd);
                if (++settings > 1) {
                    throw new NotServed("more than one HTTP2-Settings");
                }
                continue;
            } else if (nameIs(bytes, nameStart, nameLength, TRANSFER_ENCODING)
                    || nameIs(bytes, nameStart, nameLength, EXPECT)
                    || nameIs(bytes, nameStart, nameLength, TE)) {
                // a body framed otherwise, or a client waiting to be asked: Jetty's
                throw new NotServed("header that changes the framing");
            }

            if (count == names.length) {
                names = Arrays.copyOf(names, count * 2);
                values = Arrays.copyOf(values, count * 2);
            }
            names[count] = string(bytes, nameStart, nameEnd);
            values[count] = string(bytes, valueStart, valueEnd);
            count++;
        }

        if (hosts != 1) {
            throw new NotServed("not exactly one Host");
        }
        if (lengths > 1) {
            throw new NotServed("more than one Content-Length");
        }
        if (method.equals("POST") && contentLength < 0) {
            throw new NotServed("POST without Content-Length"); // a body the front cannot frame: Jetty's
        }
        if (method.equals("GET") && contentLength > 0) {
            throw new NotServed("GET with a body"); // nothing the relay takes, and a smuggling favourite
        }
        boolean offer = upgrades + settings > 0 || (connection & (CONNECTION_UPGRADE | CONNECTION_SETTINGS)) != 0;
        if (offer && (upgrades != 1 || settings != 1
                || (connection & (CONNECTION_UPGRADE | CONNECTION_SETTINGS))
                        != (CONNECTION_UPGRADE | CONNECTION_SETTINGS))) {
            throw new NotServed("part of an h2c offer without the rest");
        }
        return new RequestHead(method, path, query, names, values, count, contentLength,
                (connection & CONNECTION_CLOSE) != 0, end - from);
    }

    /** A segment of exactly "." or ".." would be removed or climb a level in a normalizing server. */
    private static void checkNotDots(byte[] bytes, int start, int stop) throws NotServed {
        int n = stop - start;
        if ((n == 1 || n == 2) && bytes[start] == '.' && bytes[stop - 1] == '.') {
            throw new NotServed("dot segment in path");
        }
    }

    private static long digits(byte[] bytes, int start, int stop) throws NotServed {
        int n = stop - start;
        if (n == 0 || n > MAX_LENGTH_DIGITS) {
            throw new NotServed("Content-Length not 1-18 digits");
        }
        long value = 0;
        for (int i = start; i < stop; i++) {
            int d = bytes[i] - '0';
            if (d < 0 || d > 9) {
                throw new NotServed("Content-Length not 1-18 digits");
            }
            value = value * 10 + d;
        }
        return value;
    }

    /** A token68 of the base64url alphabet (RFC 7540 §3.2.1): one character or more, its padding optional. */
    private static void checkBase64Url(byte[] bytes, int start, int stop) throws NotServed {
        int p = start;
        while (p < stop && (CLASS[bytes[p] & 0xFF] & BASE64URL) != 0) {
            p++;
        }
        while (p < stop && bytes[p] == '=') {
            p++;
        }
        if (p != stop || p == start) {
            throw new NotServed("HTTP2-Settings not base64url");
        }
    }

    /**
     * The options a Connection value of only {@code keep-alive}, {@code close}, {@code Upgrade} and
     * {@code HTTP2-Settings} elements names ({@code CONNECTION_*} bits); any other option (TE, a header to drop
     * as hop-by-hop) or an empty element is Jetty's.
     */
    private static int connectionOptions(byte[] bytes, int start, int stop) throws NotServed {
        int options = 0;
        int p = start;
        while (true) {
            int elementStart = p;
            while (p < stop && bytes[p] != ',' && bytes[p] != ' ' && bytes[p] != '\t') {
                p++;
            }
            int n = p - elementStart;
            if (nameIs(bytes, elementStart, n, CLOSE)) {
                options |= CONNECTION_CLOSE;
            } else if (nameIs(bytes, elementStart, n, UPGRADE)) {
                options |= CONNECTION_UPGRADE;
            } else if (nameIs(bytes, elementStart, n, HTTP2_SETTINGS)) {
                options |= CONNECTION_SETTINGS;
            } else if (!nameIs(bytes, elementStart, n, KEEP_ALIVE)) {
                throw new NotServed("Connection other than keep-alive, close or an h2c offer's");
            }
            while (p < stop && (bytes[p] == ' ' || bytes[p] == '\t')) {
                p++;
            }
            if (p == stop) {
                return options;
            }
            if (bytes[p] != ',') {
                throw new NotServed("Connection other than keep-alive, close or an h2c offer's");
            }
            p++;
            while (p < stop && (bytes[p] == ' ' || bytes[p] == '\t')) {
                p++;
            }
        }
    }

    /** Whether bytes[start, start + length) equals {@code lower} (lower case) ignoring ASCII case. */
    private static boolean nameIs(byte[] bytes, int start, int length, byte[] lower) {
        if (length != lower.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int b = bytes[start + i];
            if (b >= 'A' && b <= 'Z') {
                b += 'a' - 'A';
            }
            if (b != lower[i]) {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWith(byte[] bytes, int p, int end, byte[] prefix) {
        if (end - p < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[p + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    // every byte was checked ASCII; ISO-8859-1 is the cheapest decoder for that
    private static String string(byte[] bytes, int start, int stop) {
        return new String(bytes, start, stop - start, StandardCharsets.ISO_8859_1);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
