package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import dev.detour.server.ClientGuards;
import dev.detour.server.JettyServer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/** The relay's sink on a real Jetty, read as raw chunks: what gathers until a flush, and how much may. */
class JettyResponseSinkIT {
    /** Answers with what {@code writes} does to a sink, then completes it. */
    private interface Writes {
        void to(JettyResponseSink sink) throws ResponseSink.ClientGoneException;
    }

    /** The chunks of a chunked answer to one request, as they came on the wire. */
    private static List<byte[]> chunks(Writes writes) throws Exception {
        Handler handler = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                JettyResponseSink sink = new JettyResponseSink(request, response, callback);
                sink.begin(200, List.of(new Header("Content-Type", "text/event-stream")));
                writes.to(sink);
                sink.complete();
                return true;
            }
        };
        Server server = JettyServer.newServer("127.0.0.1", 0, Map.of(), handler, null, Duration.ofSeconds(5),
                ClientGuards.timeoutsOnly(Duration.ofSeconds(30), 0));
        server.start();
        try (Socket socket = new Socket("127.0.0.1", ((NetworkConnector) server.getConnectors()[0]).getLocalPort())) {
            // kept alive, as clients keep it: an answer of unknown length is then chunked (on a closing
            // connection Jetty ends it by closing instead)
            socket.getOutputStream().write("GET /v1/s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            String status = line(in);
            assertTrue(status.startsWith("HTTP/1.1 200 "), status);
            boolean chunked = false;
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                chunked |= header.equalsIgnoreCase("Transfer-Encoding: chunked");
            }
            assertTrue(chunked, "an answer of unknown length is chunked");
            List<byte[]> chunks = new ArrayList<>();
            for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
                byte[] chunk = new byte[size];
                in.readFully(chunk);
                assertEquals("", line(in));
                chunks.add(chunk);
            }
            return chunks;
        } finally {
            server.stop();
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the answer ended mid-line");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void framesWrittenBeforeAFlushLeaveInOneChunk() throws Exception {
        List<byte[]> chunks = chunks(sink -> {
            for (String frame : new String[] {"data: {\"a\":1}\n\n", "data: {\"b\":2}\n\n", "data: [DONE]\n\n"}) {
                byte[] bytes = frame.getBytes(StandardCharsets.US_ASCII);
                sink.write(bytes, 0, bytes.length);
            }
            sink.flush();
        });
        assertEquals(1, chunks.size());
        assertEquals("data: {\"a\":1}\n\ndata: {\"b\":2}\n\ndata: [DONE]\n\n",
                new String(chunks.get(0), StandardCharsets.US_ASCII));
    }

    @Test
    void anAnswerReadFasterThanItIsFlushedLeavesInBoundedPiecesWithEveryByteInOrder() throws Exception {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        List<byte[]> chunks = chunks(sink -> {
            byte[] piece = new byte[10_000];
            for (int i = 0; i < 64; i++) {
                java.util.Arrays.fill(piece, (byte) ('a' + i % 26)); // the caller reuses its array at once
                sink.write(piece, 0, piece.length);
                expected.write(piece, 0, piece.length);
            }
            byte[] big = new byte[100_000]; // one write larger than the bound goes on as it is
            java.util.Arrays.fill(big, (byte) 'z');
            sink.write(big, 0, big.length);
            expected.write(big, 0, big.length);
            sink.flush();
        });
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int largest = 0;
        for (byte[] chunk : chunks) {
            received.write(chunk);
            largest = Math.max(largest, chunk.length);
        }
        assertArrayEquals(expected.toByteArray(), received.toByteArray());
        assertTrue(chunks.size() >= 64 * 10_000 / JettyResponseSink.MAX_PENDING, chunks.size() + " chunks");
        assertTrue(chunks.stream().filter(c -> c.length > JettyResponseSink.MAX_PENDING).count() <= 1,
                "only the one oversized write exceeds the bound; largest " + largest);
    }

    @Test
    void whatIsStillGatheredLeavesWithTheAnswersEnd() throws Exception {
        List<byte[]> chunks = chunks(sink -> {
            byte[] first = "data: first\n\n".getBytes(StandardCharsets.US_ASCII);
            sink.write(first, 0, first.length);
            sink.flush();
            byte[] last = "data: last\n\n".getBytes(StandardCharsets.US_ASCII);
            sink.write(last, 0, last.length); // never flushed by the relay: the answer's end carries it
        });
        assertEquals(2, chunks.size());
        assertEquals("data: first\n\n", new String(chunks.get(0), StandardCharsets.US_ASCII));
        assertEquals("data: last\n\n", new String(chunks.get(1), StandardCharsets.US_ASCII));
    }
}
