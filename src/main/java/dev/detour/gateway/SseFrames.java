package dev.detour.gateway;

import java.nio.charset.StandardCharsets;

/**
 * Incremental SSE framing for the first-frame check: returns the data of the first complete event
 * that carries non-empty data (comment lines, empty frames and keep-alives skipped).
 */
final class SseFrames {
    private final StringBuilder pending = new StringBuilder();

    /** @return the first data payload once complete, else null */
    String feed(byte[] bytes, int offset, int length) {
        pending.append(new String(bytes, offset, length, StandardCharsets.UTF_8));
        while (true) {
            int end = frameEnd();
            if (end < 0) {
                return null;
            }
            String frame = pending.substring(0, end);
            pending.delete(0, end);
            while (pending.length() > 0 && (pending.charAt(0) == '\n' || pending.charAt(0) == '\r')) {
                pending.deleteCharAt(0);
            }
            String data = dataOf(frame);
            if (data != null && !data.isBlank()) {
                return data;
            }
        }
    }

    private int frameEnd() {
        int lf = pending.indexOf("\n\n");
        int crlf = pending.indexOf("\r\n\r\n");
        if (lf < 0) {
            return crlf;
        }
        return crlf < 0 ? lf : Math.min(lf, crlf);
    }

    private static String dataOf(String frame) {
        StringBuilder data = null;
        for (String line : frame.split("\r?\n")) {
            if (line.startsWith("data:")) {
                String value = line.substring(5);
                value = value.startsWith(" ") ? value.substring(1) : value;
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
        }
        return data == null ? null : data.toString();
    }
}
