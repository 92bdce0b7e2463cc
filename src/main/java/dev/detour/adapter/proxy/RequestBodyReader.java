package dev.detour.adapter.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * reads a request body into memory as its bytes arrive, never sized by the declared length
 * alone: a small declared body (the usual JSON request) is read into one exact array, a larger one
 * into {@value #CHUNK}-byte pieces allocated only once the previous piece is full, then joined. Each
 * piece is reserved in the {@link BodyBudget} first, so memory held never exceeds what arrived plus
 * one piece, and all of it within the budget.
 */
final class RequestBodyReader {
    static final int CHUNK = 64 * 1024;
    private static final int UNKNOWN_LENGTH_FIRST = 8 * 1024;

    static final class TooLargeException extends Exception {
        TooLargeException() {
            super(null, null, false, false);
        }
    }

    static final class BudgetExhaustedException extends Exception {
        BudgetExhaustedException() {
            super(null, null, false, false);
        }
    }

    private RequestBodyReader() {
    }

    /**
     * @param declared the Content-Length, or -1 when the body is chunked
     * @param max      the largest body accepted; more → {@link TooLargeException}
     */
    static byte[] read(InputStream in, long declared, int max, BodyBudget.Hold hold)
            throws IOException, TooLargeException, BudgetExhaustedException {
        if (declared > max) {
            throw new TooLargeException();
        }
        int first = declared >= 0 ? (int) Math.min(declared, CHUNK) : UNKNOWN_LENGTH_FIRST;
        byte[] current = allocate(first, hold);
        int filled = fill(in, current, 0);
        // a full piece: is there more? Not past a declared length that is all here: HTTP/1.1 sends no more,
        // and a read that only finds the end may be judged by X-4's rate long after the body came
        int probe = filled < current.length || filled == declared ? -1 : in.read();
        if (probe < 0) {
            return filled == current.length ? current : java.util.Arrays.copyOf(current, filled);
        }
        List<byte[]> pieces = new ArrayList<>();
        long total = filled;
        while (true) {
            pieces.add(current);
            if (total + 1 > max) {
                throw new TooLargeException();
            }
            long left = declared >= 0 ? Math.max(1, declared - total) : CHUNK;
            current = allocate((int) Math.min(CHUNK, Math.min(left, max + 1L - total)), hold);
            current[0] = (byte) probe;
            filled = fill(in, current, 1);
            total += filled;
            if (total > max) {
                throw new TooLargeException();
            }
            probe = filled < current.length || total == declared ? -1 : in.read();
            if (probe < 0) {
                break;
            }
        }
        byte[] body = new byte[(int) total];
        int at = 0;
        for (int i = 0; i < pieces.size(); i++) {
            byte[] piece = pieces.get(i);
            System.arraycopy(piece, 0, body, at, piece.length);
            at += piece.length;
        }
        System.arraycopy(current, 0, body, at, filled);
        return body;
    }

    private static byte[] allocate(int size, BodyBudget.Hold hold) throws BudgetExhaustedException {
        if (!hold.grow(size)) {
            throw new BudgetExhaustedException();
        }
        return new byte[size];
    }

    /** Reads until {@code buffer} is full or the body ends; returns how many bytes it now holds. */
    private static int fill(InputStream in, byte[] buffer, int from) throws IOException {
        int size = from;
        int n;
        while (size < buffer.length && (n = in.read(buffer, size, buffer.length - size)) > 0) {
            size += n;
        }
        return size;
    }
}
