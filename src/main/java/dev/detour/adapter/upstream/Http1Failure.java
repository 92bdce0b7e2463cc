package dev.detour.adapter.upstream;

import java.io.EOFException;
import java.io.IOException;

/** What Detour's own HTTP/1.1 client finds wrong with an exchange, each read by {@link TransportErrorMapper}. */
final class Http1Failure {
    private Http1Failure() {
    }

    /** No connection within the connect timeout (TCP connect and, for https, the TLS handshake). */
    static final class ConnectTimedOut extends IOException {
        ConnectTimedOut(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Every connection the route may have is in use and none came free within the connect timeout. */
    static final class PoolExhausted extends IOException {
        PoolExhausted(String message) {
            super(message);
        }
    }

    /** The connection ended before the first byte of an answer: nothing was answered. */
    static final class NoAnswer extends IOException {
        NoAnswer(String message) {
            super(message);
        }
    }

    /** The connection ended inside an answer: its head, a chunk, or before its Content-Length. */
    static final class ClosedEarly extends EOFException {
        ClosedEarly(String message) {
            super(message);
        }
    }

    /** A chunked body whose framing broke off: a chunk size line that is none, data longer than its size. */
    static final class BadChunk extends IOException {
        BadChunk(String message) {
            super(message);
        }
    }

    /** Bytes that are not HTTP/1.1: a bad status line, header, chunk size or Content-Length. */
    static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }
}
