package dev.detour.server.front;

import dev.detour.server.MinimumBodyRate;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * A Content-Length body on the front: first the bytes that arrived with the head (already in the connection's
 * buffer), then reads from the socket, never past the declared length, so a pipelined next request stays on the
 * socket. A read that waits longer than the connection's read timeout (the client timeout) throws
 * {@link java.net.SocketTimeoutException}; X-4's minimum rate is judged by {@link MinimumBodyRate.Pace}, asked only
 * before a read that will wait for the client (nothing buffered here or in the kernel).
 */
final class BoundedBody extends InputStream {
    private final InputStream socket;
    private final byte[] buffer;
    private int position;
    private final int buffered;
    private long remaining;
    private final MinimumBodyRate.Pace pace;

    /**
     * @param buffer  the connection's buffer; bytes {@code [position, buffered)} arrived after the head
     * @param length  the declared Content-Length
     * @param pace    X-4's minimum rate for this body, or null for none
     */
    BoundedBody(InputStream socket, byte[] buffer, int position, int buffered, long length, MinimumBodyRate.Pace pace) {
        this.socket = socket;
        this.buffer = buffer;
        this.position = position;
        this.buffered = buffered;
        this.remaining = length;
        this.pace = pace;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (remaining == 0) {
            return -1;
        }
        int wanted = (int) Math.min(length, remaining);
        if (position < buffered) {
            int n = Math.min(wanted, buffered - position);
            System.arraycopy(buffer, position, bytes, offset, n);
            position += n;
            return counted(n, false);
        }
        boolean behind = pace != null && socket.available() <= 0 && pace.behind();
        int n = socket.read(bytes, offset, wanted);
        if (n < 0) {
            throw new EOFException("the client closed before its body ended");
        }
        return counted(n, behind);
    }

    private int counted(int n, boolean behind) throws IOException {
        if (pace != null) {
            pace.counted(n, behind);
        }
        remaining -= n;
        return n;
    }

    @Override
    public int available() throws IOException {
        if (remaining == 0) {
            return 0;
        }
        long ready = (long) (buffered - position) + (position < buffered ? 0 : socket.available());
        return (int) Math.min(remaining, ready);
    }

    /** Bytes of the body not read yet. */
    long remaining() {
        return remaining;
    }

    /** Where in the connection's buffer the bytes after the body begin (once it is all read). */
    int endInBuffer() {
        return position;
    }
}
