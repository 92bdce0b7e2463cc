package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.junit.jupiter.api.Test;

/**
 * A chunked body reports the next chunk as ready exactly when its next read would not wait for the network.
 * The "socket" hands out the pieces the test gave it, one per read, and fails a read it has nothing for:
 * a read that would have waited.
 */
class ChunkedBodyTest {
    private final Pieces socket = new Pieces();
    /** As a connection makes it: 8 KiB; a read of a whole buffer or more goes past it when it is empty. */
    private final ReadBuffer buffer = new ReadBuffer(socket);

    @Test
    void theNextChunkIsReadyWhenItsSizeLineAndSomeDataCameWithThePreviousOne() {
        assertTrue(arrived("\r\n1a\r\nd"));
        assertTrue(arrived("1a\r\nd"), "the body's first chunk (no closing CRLF before it)");
        assertTrue(arrived("\n5\nhello"), "a lone LF ends a line");
        assertTrue(arrived("\r\n5;name=value\r\nh"), "an extension is skipped");
        assertTrue(arrived("\r\n 5 \r\nh"));
    }

    @Test
    void anythingShortOfThatIsNotReady() {
        assertFalse(arrived("\r"));
        assertFalse(arrived("\r\n"), "only the previous chunk's CRLF");
        assertFalse(arrived("\r\n1"), "the size line cut");
        assertFalse(arrived("\r\n1a\r"), "the size line's CRLF cut");
        assertFalse(arrived("\r\n1a\r\n"), "no data byte yet");
        assertFalse(arrived("\r\n0\r\n\r\n"), "the last chunk: its read ends the body");
        assertFalse(arrived("\r\nzz\r\nh"), "not a size");
        assertFalse(arrived("\r\n;x\r\nh"), "no digits");
        assertFalse(arrived("\r\n1234567890abcdef0\r\nh"), "more digits than a size has");
    }

    /** N-7: what a pump gives back to the stream's thread rather than wait for: bytes that end the body, or break it. */
    @Test
    void theLastChunksSizeLineOrOneThatIsNoSizeStopsAPumpedBodyAndAnythingCutDoesNot() {
        assertTrue(lastArrived("\r\n0\r\n"), "the last chunk, its trailers still to come");
        assertTrue(lastArrived("\r\n0\r\n\r\n"));
        assertTrue(lastArrived("0\r\n\r\n"), "an empty body");
        assertTrue(lastArrived("\n0;ext=1\n"), "a lone LF, an extension");
        assertTrue(lastArrived("\r\nzz\r\n"), "not a size: the thread's read fails it");
        assertFalse(lastArrived("\r\n"), "only the previous chunk's CRLF: wait for more");
        assertFalse(lastArrived("\r\n0"), "the size line cut");
        assertFalse(lastArrived("\r\n1a\r\n"), "a chunk with data to come");
        assertFalse(lastArrived("\r\n1a\r\nd"));
    }

    @Test
    void aBodyStopsAtTheBoundaryBeforeItsLastChunkAndNotInsideAChunk() throws Exception {
        socket.add("5\r\nhello\r\n0\r\n\r\n");
        ChunkedBody body = new ChunkedBody(buffer);
        assertEquals("he", readAtMost(body, 2));
        assertFalse(body.stopsAtBoundary(), "inside a chunk");
        assertEquals("llo", read(body));
        assertTrue(body.stopsAtBoundary(), "the last chunk came: a blocking read ends the body");
        assertEquals(-1, body.read(new byte[16]));
        assertTrue(body.stopsAtBoundary(), "ended");
    }

    @Test
    void chunksThatCameInOneReadAreReadyAndTheReadThatWouldWaitIsNot() throws Exception {
        socket.add("5\r\nhello\r\n5\r\nworld\r\n");
        ChunkedBody body = new ChunkedBody(buffer);

        assertEquals("hello", read(body));
        assertTrue(body.available() > 0, "world came in the same read");
        assertEquals("world", read(body)); // from the buffer: the socket has nothing left
        assertEquals(0, body.available(), "only the CRLF after world");

        socket.add("5\r\nagain\r\n1");
        assertEquals("again", read(body));
        assertEquals(0, body.available(), "the next size line is cut");

        socket.add("0\r\n0123456789abcdef\r\n0\r\n\r\n");
        assertEquals("0123456789abcdef", read(body));
        assertEquals(0, body.available(), "the last chunk is next");
        assertEquals(-1, body.read(new byte[16]));
    }

    @Test
    void chunksThatCameWithTheAnswersHeadAreReadyAsWell() throws Exception {
        socket.add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n5\r\nworld\r\n");
        ResponseHead head = ResponseHead.read(buffer);
        ChunkedBody body = new ChunkedBody(buffer);

        assertEquals(200, head.status());
        assertTrue(body.available() > 0, "the first chunk came with the head");
        assertEquals("hello", read(body));
        assertTrue(body.available() > 0, "and so did the next");
        assertEquals("world", read(body));
    }

    @Test
    void aChunkReadStraightIntoTheCallersArrayTakesNothingPastItsEnd() throws Exception {
        String big = "x".repeat(ReadBuffer.SIZE + 1000); // a read of a whole buffer or more skips the buffer
        socket.add(Integer.toHexString(big.length()) + "\r\n");
        socket.add(big + "\r\n3\r\nabc\r\n0\r\n\r\n");
        ChunkedBody body = new ChunkedBody(buffer);

        byte[] into = new byte[2 * ReadBuffer.SIZE];
        int n = body.read(into, 0, into.length);
        StringBuilder got = new StringBuilder(new String(into, 0, n, StandardCharsets.US_ASCII));
        while (got.length() < big.length()) {
            n = body.read(into, 0, into.length);
            got.append(new String(into, 0, n, StandardCharsets.US_ASCII));
        }
        assertEquals(big, got.toString());
        assertEquals("abc", read(body));
        assertEquals(-1, body.read(into, 0, into.length));
        assertTrue(body.ended());
    }

    @Test
    void aSizeLineThatIsNoneAndABodyCutShortAreFailures() throws Exception {
        socket.add("zz\r\nhello\r\n");
        ChunkedBody bad = new ChunkedBody(buffer);
        assertThrows(Http1Failure.BadChunk.class, () -> bad.read(new byte[16]));

        ReadBuffer other = new ReadBuffer(new java.io.ByteArrayInputStream(ascii("5\r\nhel")));
        ChunkedBody cut = new ChunkedBody(other);
        assertEquals("hel", read(cut));
        assertThrows(Http1Failure.ClosedEarly.class, () -> cut.read(new byte[16]));
    }

    private static boolean arrived(String unread) {
        byte[] bytes = ascii("junk" + unread + "tail");
        return ChunkedBody.nextChunkArrived(bytes, 4, bytes.length - 4);
    }

    private static boolean lastArrived(String unread) {
        byte[] bytes = ascii("junk" + unread + "tail");
        return ChunkedBody.lastChunkArrived(bytes, 4, bytes.length - 4);
    }

    private static String readAtMost(InputStream body, int most) throws Exception {
        byte[] into = new byte[most];
        int n = body.read(into);
        return new String(into, 0, n, StandardCharsets.US_ASCII);
    }

    private static String read(InputStream body) throws Exception {
        byte[] into = new byte[64];
        int n = body.read(into);
        return new String(into, 0, n, StandardCharsets.US_ASCII);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * One piece per read (a read shorter than the piece leaves the rest for the next); a read with no piece
     * left is one that would have waited for the network.
     */
    private static final class Pieces extends InputStream {
        private final Deque<byte[]> pieces = new ArrayDeque<>();

        void add(String piece) {
            pieces.add(ascii(piece));
        }

        @Override
        public int read() {
            throw new AssertionError("single-byte read");
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            byte[] piece = pieces.poll();
            if (piece == null) {
                throw new AssertionError("this read would have waited for the network");
            }
            int n = Math.min(piece.length, length);
            System.arraycopy(piece, 0, into, offset, n);
            if (n < piece.length) {
                pieces.addFirst(Arrays.copyOfRange(piece, n, piece.length));
            }
            return n;
        }
    }
}
