package dev.detour.bridge;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * B-2: an upstream's SSE bytes, fed as they arrive, cut into events ({@code event:} name and data). Unlike
 * the gateway's first-frame framer it hands over every event a read completes, in order. A line or a UTF-8
 * character cut across reads waits in a buffer; data is decoded once per event, so a split character is
 * never mangled. Lines end at \n, \r\n or \r; a comment line (an upstream's keep-alive) is reported as such,
 * {@code id:} and {@code retry:} carry nothing here.
 * Not thread-safe: one per stream.
 */
final class SseStreamDecoder {
    /** Receives each completed event; the name is null when the event had no {@code event:} line. */
    interface Listener {
        void event(String name, String data);

        /** A comment line ({@code : …}): upstreams send them to keep a quiet connection open. */
        default void comment() {
        }
    }

    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
    private final ByteArrayOutputStream data = new ByteArrayOutputStream(512);
    private String name;
    private boolean hasData;
    private boolean afterCr;
    private boolean firstLine = true;

    void feed(byte[] bytes, int offset, int length, Listener listener) {
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            byte b = bytes[i];
            if (b != '\n' && b != '\r') {
                afterCr = false;
                continue;
            }
            boolean crlfTail = b == '\n' && afterCr; // the \n of a \r\n: the line already ended at the \r
            afterCr = b == '\r';
            if (!crlfTail) {
                line.write(bytes, start, i - start);
                endLine(listener);
            }
            start = i + 1;
        }
        line.write(bytes, start, end - start);
    }

    /** The upstream ended: a last event without its blank line still counts. */
    void finish(Listener listener) {
        if (line.size() > 0) {
            endLine(listener);
        }
        endEvent(listener);
    }

    private void endLine(Listener listener) {
        byte[] l = line.toByteArray();
        line.reset();
        int from = 0;
        if (firstLine && l.length >= 3 && l[0] == (byte) 0xEF && l[1] == (byte) 0xBB && l[2] == (byte) 0xBF) {
            from = 3; // a UTF-8 byte-order mark is not part of the first field
        }
        firstLine = false;
        if (l.length == from) {
            endEvent(listener);
            return;
        }
        if (l[from] == ':') {
            listener.comment();
            return;
        }
        int colon = from;
        while (colon < l.length && l[colon] != ':') {
            colon++;
        }
        int value = colon + 1 < l.length && l[colon + 1] == ' ' ? colon + 2 : colon + 1;
        String field = new String(l, from, colon - from, StandardCharsets.US_ASCII);
        if (field.equals("data")) {
            if (hasData) {
                data.write('\n');
            }
            if (value < l.length) {
                data.write(l, value, l.length - value);
            }
            hasData = true;
        } else if (field.equals("event")) {
            name = value < l.length ? new String(l, value, l.length - value, StandardCharsets.UTF_8) : "";
        }
    }

    private void endEvent(Listener listener) {
        if (hasData) {
            String payload = data.toString(StandardCharsets.UTF_8);
            data.reset();
            hasData = false;
            listener.event(name, payload);
        }
        name = null;
    }
}
