package dev.detour.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;

/**
 * Loopback OpenAI-shaped upstream: a request with {@code "stream":true} gets a role frame, 64
 * content deltas 20 ms apart (scheduled against the start, so no drift) and {@code data: [DONE]};
 * any other request gets {@link Payloads#COMPLETION_JSON}. One virtual thread per connection
 * reads requests (keep-alive); the deltas of all streams go out from one {@link DeltaTicker};
 * chunked SSE, flushed per frame.
 */
final class FakeUpstream {
    private static final Pattern STREAM_TRUE = Pattern.compile("\"stream\"\\s*:\\s*true");
    private static final byte[] JSON = Payloads.ascii(Payloads.COMPLETION_JSON);
    private static final byte[] JSON_HEAD = Payloads.ascii("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + "Content-Length: " + JSON.length + "\r\n\r\n");
    private static final byte[] SSE_HEAD = Payloads.ascii("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            + "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n");

    private static final byte[] ROLE_CHUNK = chunk(Payloads.roleFrame());
    /** The 64 delta chunks, then [DONE] and the last chunk, written together right after the last delta. */
    private static final byte[][] AFTER_ROLE = afterRole();
    private static final DeltaTicker TICKER = new DeltaTicker();

    private FakeUpstream() {
    }

    static void serve(int port) throws IOException {
        ServerSocket server = new ServerSocket(port, 8192, InetAddress.getLoopbackAddress());
        System.err.println("fake upstream listening on 127.0.0.1:" + server.getLocalPort());
        while (true) {
            Socket socket = server.accept();
            Thread.ofVirtual().name("upstream-conn").start(() -> handle(socket));
        }
    }

    private static void handle(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 16_384);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 16_384);
            while (serveOne(in, out)) {
                // keep-alive: next request on the same connection
            }
        } catch (IOException e) {
            // client went away; nothing to report for a bench upstream
        }
    }

    private static boolean serveOne(InputStream in, OutputStream out) throws IOException {
        String requestLine = readLine(in, true);
        if (requestLine == null) {
            return false;
        }
        long contentLength = 0;
        boolean chunked = false;
        boolean close = requestLine.endsWith("HTTP/1.0");
        for (String line = readLine(in, false); !line.isEmpty(); line = readLine(in, false)) {
            String lower = line.toLowerCase();
            if (lower.startsWith("content-length:")) {
                contentLength = Long.parseLong(line.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                close = true;
            }
        }
        String body = chunked ? readChunkedBody(in) : new String(in.readNBytes((int) contentLength),
                StandardCharsets.UTF_8);
        if (STREAM_TRUE.matcher(body).find()) {
            writeStream(out);
        } else {
            out.write(JSON_HEAD);
            out.write(JSON);
            out.flush();
        }
        return !close;
    }

    /** The head and role frame at once (what TTFT times), then the deltas and [DONE] from the ticker. */
    private static void writeStream(OutputStream out) throws IOException {
        long start = System.nanoTime();
        out.write(SSE_HEAD);
        out.write(ROLE_CHUNK);
        out.flush();
        try {
            TICKER.send(out, start, AFTER_ROLE).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** One SSE frame as one HTTP chunk, so every frame is flushed on its own. */
    private static byte[] chunk(byte[] frame) {
        byte[] head = Payloads.ascii(Integer.toHexString(frame.length) + "\r\n");
        byte[] chunk = new byte[head.length + frame.length + 2];
        System.arraycopy(head, 0, chunk, 0, head.length);
        System.arraycopy(frame, 0, chunk, head.length, frame.length);
        chunk[chunk.length - 2] = (byte) 13;
        chunk[chunk.length - 1] = (byte) 10;
        return chunk;
    }

    private static byte[][] afterRole() {
        byte[][] chunks = new byte[Payloads.DELTAS + 1][];
        for (int i = 0; i < Payloads.DELTAS; i++) {
            chunks[i] = chunk(Payloads.deltaFrame(i));
        }
        byte[] done = chunk(Payloads.doneFrame());
        byte[] last = Payloads.ascii("0\r\n\r\n");
        chunks[Payloads.DELTAS] = new byte[done.length + last.length];
        System.arraycopy(done, 0, chunks[Payloads.DELTAS], 0, done.length);
        System.arraycopy(last, 0, chunks[Payloads.DELTAS], done.length, last.length);
        return chunks;
    }

    private static String readChunkedBody(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in, false);
            int semi = sizeLine.indexOf(';');
            int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                while (!readLine(in, false).isEmpty()) {
                    // trailers: ignored
                }
                return body.toString(StandardCharsets.UTF_8);
            }
            body.write(in.readNBytes(size));
            readLine(in, false);
        }
    }

    /** Reads a CRLF line; at a request boundary a clean EOF returns null. */
    private static String readLine(InputStream in, boolean eofAllowed) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                if (eofAllowed && line.length() == 0) {
                    return null;
                }
                throw new EOFException("connection closed mid-request");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
