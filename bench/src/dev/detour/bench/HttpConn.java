package dev.detour.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One keep-alive HTTP/1.1 client connection on a plain socket. Raw sockets keep the client's own
 * cost small and constant, so the difference between legs is the proxy's, not the client's.
 */
final class HttpConn implements AutoCloseable {
    /** Receives response body bytes as they arrive, with the time they were read. */
    interface BodySink {
        void accept(byte[] buf, int off, int len, long nanos);
    }

    /** Status and (for buffered use) body of one exchange. */
    record Response(int status, byte[] body) {
    }

    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    private boolean reusable;

    HttpConn(int port) {
        this.port = port;
    }

    /** Sends a prepared request and reads the whole response into memory. */
    Response exchange(byte[] request) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(512);
        int status = exchange(request, (buf, off, len, nanos) -> body.write(buf, off, len));
        return new Response(status, body.toByteArray());
    }

    /** Sends a prepared request and streams the body to {@code sink}; returns the status. */
    int exchange(byte[] request, BodySink sink) throws IOException {
        ensureOpen();
        try {
            out.write(request);
            out.flush();
            return readResponse(sink);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private void ensureOpen() throws IOException {
        if (socket != null && reusable) {
            return;
        }
        close();
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 30_000);
        socket.setSoTimeout(120_000);
        in = new BufferedInputStream(socket.getInputStream(), 16_384);
        out = socket.getOutputStream();
        reusable = true;
    }

    private int readResponse(BodySink sink) throws IOException {
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long contentLength = -1;
        boolean chunked = false;
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).trim().toLowerCase();
            String value = line.substring(colon + 1).trim();
            if (name.equals("content-length")) {
                contentLength = Long.parseLong(value);
            } else if (name.equals("transfer-encoding") && value.equalsIgnoreCase("chunked")) {
                chunked = true;
            } else if (name.equals("connection") && value.equalsIgnoreCase("close")) {
                reusable = false;
            }
        }
        if (chunked) {
            readChunked(sink);
        } else if (contentLength >= 0) {
            readFixed(contentLength, sink);
        } else {
            reusable = false;
            readFixed(Long.MAX_VALUE, sink);
        }
        return status;
    }

    private void readChunked(BodySink sink) throws IOException {
        while (true) {
            String sizeLine = readLine();
            int semi = sizeLine.indexOf(';');
            long size = Long.parseLong((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                while (!readLine().isEmpty()) {
                    // trailers: ignored
                }
                return;
            }
            readFixed(size, sink);
            readLine();
        }
    }

    private final byte[] buffer = new byte[16_384];

    private void readFixed(long length, BodySink sink) throws IOException {
        long left = length;
        while (left > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                if (length == Long.MAX_VALUE) {
                    return;
                }
                throw new EOFException("connection closed with " + left + " body bytes missing");
            }
            sink.accept(buffer, 0, n, System.nanoTime());
            left -= n;
        }
    }

    private final StringBuilder line = new StringBuilder(128);

    private String readLine() throws IOException {
        line.setLength(0);
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed by server");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
            socket = null;
        }
    }
}
