package dev.detour.server.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.server.front.RequestHeadParser.NotServed;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The front's head subset: what it serves itself, read right, and every head it must leave to Jetty. */
class RequestHeadParserTest {
    private static final String HOST = "Host: detour.example\r\n";
    private static final String CHAT = "POST /v1/chat/completions HTTP/1.1\r\n"
            + "Authorization: Bearer sk-detour-1\r\n"
            + "content-type: application/json\r\n"
            + "Content-Length: 17\r\n"
            + HOST
            + "\r\n";

    @Test
    void aChatRequestIsReadWholeAtAnOffsetWithItsBodyBehind() throws NotServed {
        byte[] bytes = bytes("rest of the previous request|" + CHAT + "{\"model\":\"gpt-x\"}");
        int from = "rest of the previous request|".length();

        RequestHead head = RequestHeadParser.parse(bytes, from, bytes.length);

        assertEquals("POST", head.method());
        assertEquals("/v1/chat/completions", head.path());
        assertNull(head.query());
        assertEquals(4, head.headerCount());
        assertEquals("Authorization", head.name(0));
        assertEquals("Bearer sk-detour-1", head.value(0));
        assertEquals("content-type", head.name(1)); // case as sent
        assertEquals("Host", head.name(3));
        assertEquals("application/json", head.header("Content-Type"));
        assertEquals("detour.example", head.header("HOST"));
        assertEquals("17", head.header("content-length"));
        assertNull(head.header("Expect"));
        assertNull(head.header("Ho\u212At")); // the Kelvin sign is no 'k': names compare in ASCII only
        assertEquals(17, head.contentLength());
        assertFalse(head.close());
        assertEquals(CHAT.length(), head.length());
        assertEquals("{\"model\":\"gpt-x\"}", new String(bytes, from + head.length(), 17, StandardCharsets.US_ASCII));
    }

    @Test
    void aGetKeepsItsRawQueryAndHasNoLength() throws NotServed {
        RequestHead head = parse("GET /v1/models?limit=10&after=a%2Fb/c?d HTTP/1.1\r\n" + HOST + "\r\n");

        assertEquals("GET", head.method());
        assertEquals("/v1/models", head.path());
        assertEquals("limit=10&after=a%2Fb/c?d", head.query());
        assertEquals(-1, head.contentLength());
    }

    @Test
    void aBareQuestionMarkIsAnEmptyQuery() throws NotServed {
        assertEquals("", parse("GET /v1/models? HTTP/1.1\r\n" + HOST + "\r\n").query());
    }

    @Test
    void aGetMayDeclareAnEmptyBody() throws NotServed {
        assertEquals(0, parse("GET / HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\n").contentLength());
    }

    @Test
    void valuesAreTrimmedAndMayBeEmpty() throws NotServed {
        RequestHead head = parse("GET / HTTP/1.1\r\nHost:\r\nX-Spaced: \t a \t b \t\r\nX-Empty:  \r\n\r\n");

        assertEquals("", head.header("host"));
        assertEquals("a \t b", head.header("x-spaced"));
        assertEquals("", head.header("x-empty"));
    }

    @ParameterizedTest(name = "path {0}")
    @ValueSource(strings = {"/", "/v1/", "/a.b/c", "/..a", "/a..", "/.well-known/x", "/a:b@c!$&'()*+,=~_-"})
    void plainPathsAreServedAsSent(String path) throws NotServed {
        assertEquals(path, parse("GET " + path + " HTTP/1.1\r\n" + HOST + "\r\n").path());
    }

    @ParameterizedTest(name = "Connection: {0} closes: {1}")
    @MethodSource
    void connectionSaysWhetherToClose(String value, boolean close) throws NotServed {
        assertEquals(close, parse("GET / HTTP/1.1\r\n" + HOST + "Connection: " + value + "\r\n\r\n").close());
    }

    static Stream<Arguments> connectionSaysWhetherToClose() {
        return Stream.of(Arguments.of("close", true), Arguments.of("keep-alive, close", true),
                Arguments.of("Keep-Alive ,\tCLOSE", true), Arguments.of("keep-alive", false));
    }

    @Test
    void anIncompleteHeadAsksForMoreUntilItIsWhole() throws NotServed {
        byte[] bytes = bytes(CHAT);
        for (int to = 0; to < bytes.length; to++) {
            assertNull(RequestHeadParser.parse(bytes, 0, to), "prefix of " + to + " bytes");
        }
        assertNotNull(RequestHeadParser.parse(bytes, 0, bytes.length));
    }

    @Test
    void noWholeHeadWithinMaxHeadIsNotServed() throws NotServed {
        byte[] bytes = bytes("GET / HTTP/1.1\r\n" + HOST + "X-Pad: " + "a".repeat(RequestHeadParser.MAX_HEAD));

        assertNull(RequestHeadParser.parse(bytes, 0, RequestHeadParser.MAX_HEAD - 1));
        assertThrows(NotServed.class, () -> RequestHeadParser.parse(bytes, 0, RequestHeadParser.MAX_HEAD));
    }

    @Test
    void aWholeHeadMayTakeMaxHeadButNoMore() throws NotServed {
        String start = "GET / HTTP/1.1\r\n" + HOST + "X-Pad: ";
        String fits = start + "a".repeat(RequestHeadParser.MAX_HEAD - start.length() - 4) + "\r\n\r\n";
        String over = start + "a".repeat(RequestHeadParser.MAX_HEAD - start.length() - 3) + "\r\n\r\n";

        assertEquals(RequestHeadParser.MAX_HEAD, parse(fits).length());
        assertThrows(NotServed.class, () -> parse(over));
    }

    @Test
    void notServedIsStackless() {
        NotServed refused = assertThrows(NotServed.class, () -> parse("PUT / HTTP/1.1\r\n" + HOST + "\r\n"));

        assertEquals(0, refused.getStackTrace().length);
        assertNotNull(refused.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void outsideTheSubsetGoesToJetty(String why, String head) {
        assertThrows(NotServed.class, () -> parse(head));
    }

    static Stream<Arguments> outsideTheSubsetGoesToJetty() {
        return Stream.of(
                refused("lowercase method", "get / HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("PUT", "PUT / HTTP/1.1\r\n" + HOST + "Content-Length: 0\r\n\r\n"),
                refused("HEAD", "HEAD / HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("OPTIONS", "OPTIONS / HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("a leading empty line", "\r\nGET / HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("HTTP/1.0", "GET / HTTP/1.0\r\n" + HOST + "\r\n"),
                refused("lowercase version", "GET / http/1.1\r\n" + HOST + "\r\n"),
                refused("two spaces after the method", "GET  / HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("two spaces before the version", "GET /  HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("a space after the version", "GET / HTTP/1.1 \r\n" + HOST + "\r\n"),
                refused("a space in the path", "GET /a b HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("absolute form", "GET http://x/ HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("asterisk form", "GET * HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("% in the path", "GET /v1%2Fchat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("; in the path", "GET /v1;x=y/chat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("backslash in the path", "GET /v1\\chat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("non-ASCII in the path", "GET /caf\u00e9 HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("leading //", "GET //v1/chat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("// inside", "GET /v1//chat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("/./", "GET /v1/./chat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("/../", "GET /x/../v1/chat HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("trailing /..", "GET /v1/.. HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("trailing /.", "GET /v1/. HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("/.. alone", "GET /.. HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("# in the path", "GET /v1#x HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("# in the query", "GET /v1?a#x HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("%zz in the query", "GET /v1?a=%zz HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("% cut short in the query", "GET /v1?a=%2 HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("a quote in the query", "GET /v1?a=\"b\" HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("a bare LF ending the request line", "GET / HTTP/1.1\n" + HOST + "\r\n"),
                refused("a bare LF ending a header", "GET / HTTP/1.1\r\nX-A: b\n" + HOST + "\r\n"),
                refused("a bare CR in a value", "GET / HTTP/1.1\r\nX-A: b\rc\r\n" + HOST + "\r\n"),
                refused("a bare CR ending a header", "GET / HTTP/1.1\r\nX-A: b\r" + HOST + "\r\n"),
                refused("obs-fold with SP", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\r\n c\r\n\r\n"),
                refused("obs-fold with HTAB", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\r\n\tc\r\n\r\n"),
                refused("a space before the colon", "GET / HTTP/1.1\r\nHost : detour.example\r\n\r\n"),
                refused("an empty header name", "GET / HTTP/1.1\r\n" + HOST + ": b\r\n\r\n"),
                refused("a non-token name", "GET / HTTP/1.1\r\n" + HOST + "X@A: b\r\n\r\n"),
                refused("a line without colon", "GET / HTTP/1.1\r\n" + HOST + "X-A\r\n\r\n"),
                refused("a control byte in a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\u0001c\r\n\r\n"),
                refused("a NUL in a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\u0000\r\n\r\n"),
                refused("DEL in a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\u007f\r\n\r\n"),
                refused("byte 0x80 in a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: b\u0080\r\n\r\n"),
                refused("no Host", "GET / HTTP/1.1\r\nX-A: b\r\n\r\n"),
                refused("two Hosts", "GET / HTTP/1.1\r\n" + HOST + "host: other.example\r\n\r\n"),
                refused("two Content-Lengths", "POST / HTTP/1.1\r\n" + HOST
                        + "Content-Length: 5\r\ncontent-length: 5\r\n\r\n"),
                refused("Content-Length: +5", post("+5")),
                refused("Content-Length: 1,1", post("1,1")),
                refused("Content-Length: 1 1", post("1 1")),
                refused("Content-Length: -1", post("-1")),
                refused("an empty Content-Length", post("")),
                refused("19 digits", post("1234567890123456789")),
                refused("POST without Content-Length", "POST / HTTP/1.1\r\n" + HOST + "\r\n"),
                refused("GET with a body", "GET / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\n\r\n"),
                refused("Transfer-Encoding", "POST / HTTP/1.1\r\n" + HOST
                        + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"),
                refused("transfer-encoding: identity", "POST / HTTP/1.1\r\n" + HOST
                        + "transfer-encoding: identity\r\nContent-Length: 5\r\n\r\n"),
                refused("Expect", "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nExpect: 100-continue\r\n\r\n"),
                refused("Upgrade", "GET / HTTP/1.1\r\n" + HOST + "Upgrade: websocket\r\n\r\n"),
                refused("HTTP2-Settings", "GET / HTTP/1.1\r\n" + HOST + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n"),
                refused("an h2c offer naming websocket", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: websocket\r\nHTTP2-Settings: AAMA\r\n\r\n"),
                refused("an h2c offer with two protocols", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c, websocket\r\nHTTP2-Settings: AAMA\r\n\r\n"),
                refused("an h2c offer without HTTP2-Settings", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n\r\n"),
                refused("an h2c offer with two HTTP2-Settings", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMA\r\n"
                        + "HTTP2-Settings: AAMA\r\n\r\n"),
                refused("an h2c offer with two Upgrades", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nUpgrade: h2c\r\n"
                        + "HTTP2-Settings: AAMA\r\n\r\n"),
                refused("an h2c offer whose Connection lacks HTTP2-Settings", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMA\r\n\r\n"),
                refused("an h2c offer without Connection", "GET / HTTP/1.1\r\n" + HOST
                        + "Upgrade: h2c\r\nHTTP2-Settings: AAMA\r\n\r\n"),
                refused("Connection naming an offer never made", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\n\r\n"),
                refused("HTTP2-Settings not base64url", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AA+/\r\n\r\n"),
                refused("an empty HTTP2-Settings", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings:\r\n\r\n"),
                refused("HTTP2-Settings padding in the middle", "GET / HTTP/1.1\r\n" + HOST
                        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AA=A\r\n\r\n"),
                refused("TE", "GET / HTTP/1.1\r\n" + HOST + "TE: trailers\r\n\r\n"),
                refused("Connection: Upgrade", "GET / HTTP/1.1\r\n" + HOST + "Connection: Upgrade\r\n\r\n"),
                refused("Connection: keep-alive, TE", "GET / HTTP/1.1\r\n" + HOST + "Connection: keep-alive, TE\r\n\r\n"),
                refused("an empty Connection", "GET / HTTP/1.1\r\n" + HOST + "Connection:\r\n\r\n"),
                refused("Connection: close,", "GET / HTTP/1.1\r\n" + HOST + "Connection: close,\r\n\r\n"),
                refused("too many header lines", "GET / HTTP/1.1\r\n" + HOST
                        + "X-A: b\r\n".repeat(RequestHeadParser.MAX_HEADERS) + "\r\n"));
    }

    @Test
    void anH2cOfferIsServedAsHttp11WithTheOfferDropped() throws NotServed {
        // what the JDK's HttpClient sends on every new plain connection
        RequestHead head = parse("POST /v1/chat/completions HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                + "Content-Length: 2\r\n" + HOST + "HTTP2-Settings: AAEAAEAAAAIAAAABAAMAAABkAAQBAAAAAAUAAEAA\r\n"
                + "Upgrade: h2c\r\nContent-Type: application/json\r\n\r\n");
        assertEquals(2, head.contentLength());
        assertFalse(head.close());
        assertNull(head.header("Upgrade"));
        assertNull(head.header("HTTP2-Settings"));
        assertEquals("Upgrade, HTTP2-Settings", head.header("Connection")); // hop-by-hop: never forwarded
        assertEquals("application/json", head.header("content-type"));
        assertEquals(4, head.headerCount());
    }

    @Test
    void anH2cOfferWithCloseAndPaddedSettingsClosesAfterTheAnswer() throws NotServed {
        RequestHead head = parse("GET / HTTP/1.1\r\n" + HOST + "connection: close, upgrade, http2-settings\r\n"
                + "upgrade: H2C\r\nhttp2-settings: AAMAAABk-_==\r\n\r\n");
        assertTrue(head.close());
        assertEquals(2, head.headerCount());
    }

    @Test
    void theLastHeaderLineThatFitsIsServed() throws NotServed {
        String head = "GET / HTTP/1.1\r\n" + HOST + "X-A: b\r\n".repeat(RequestHeadParser.MAX_HEADERS - 1) + "\r\n";
        assertEquals(RequestHeadParser.MAX_HEADERS, parse(head).headerCount());
    }

    @Test
    void aServedHeadStaysServedWhateverFollowsIt() throws NotServed {
        // the next request's bytes (pipelined) or a body are not the head's business, however odd
        RequestHead head = parse(CHAT + "GET //x HTTP/1.0\n\u0000");
        assertEquals(CHAT.length(), head.length());
    }

    private static Arguments refused(String why, String head) {
        return Arguments.of(why, head);
    }

    private static String post(String contentLength) {
        return "POST / HTTP/1.1\r\n" + HOST + "Content-Length: " + contentLength + "\r\n\r\n";
    }

    private static RequestHead parse(String head) throws NotServed {
        byte[] bytes = bytes(head);
        return RequestHeadParser.parse(bytes, 0, bytes.length);
    }

    // ISO-8859-1 so that "\u0080" in a test is the single byte 0x80 a client could send
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
