package dev.detour.gateway.wire;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.usage.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Token usage and S-7 cost of an SSE stream, fed the bytes as they are relayed. Lines are found in
 * place in each read; only a line split across reads is carried over. A data line is parsed only
 * when it mentions {@code "usage"}, once, for usage and cost together ({@link AnswerReader}).
 */
public final class UsageLines {
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    private static final int MAX_LINE = 1 << 20; // a longer line is relayed but not read for usage

    private final EndpointFamily protocol;
    private byte[] carry = new byte[0];
    private int carried;
    private boolean overlong;
    private TokenUsage usage = TokenUsage.NONE;
    private boolean usageSeen;
    private long costMicros = -1;

    /** The usage and cost of a whole SSE body read on the buffered path. */
    public static AnswerFacts of(EndpointFamily protocol, byte[] body) {
        UsageLines lines = new UsageLines(protocol);
        lines.feed(body, 0, body.length);
        lines.feed(new byte[] {'\n'}, 0, 1); // a last line without its newline counts too
        return new AnswerFacts(lines.usage, lines.usageSeen, lines.costMicros, null, false);
    }

    /** @param protocol the protocol the upstream streams in: it decides what its usage counts mean (B-4) */
    public UsageLines(EndpointFamily protocol) {
        this.protocol = protocol;
    }

    public TokenUsage usage() {
        return usage;
    }

    /** P-7': some line carried a usage object (zero counts included). */
    public boolean usageSeen() {
        return usageSeen;
    }

    /** The last cost a usage line reported, -1 when none did. */
    public long costMicros() {
        return costMicros;
    }

    public void feed(byte[] bytes, int offset, int length) {
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (bytes[i] != '\n') {
                continue;
            }
            if (carried > 0 || overlong) {
                append(bytes, start, i - start);
                line(carry, 0, carried);
                carried = 0;
                overlong = false;
            } else {
                line(bytes, start, i - start);
            }
            start = i + 1;
        }
        append(bytes, start, end - start);
    }

    private void line(byte[] bytes, int offset, int length) {
        if (length <= 5 || bytes[offset] != 'd' || bytes[offset + 1] != 'a' || bytes[offset + 2] != 't'
                || bytes[offset + 3] != 'a' || bytes[offset + 4] != ':'
                || !contains(bytes, offset + 5, length - 5, USAGE)) {
            return;
        }
        AnswerFacts found = AnswerReader.read(protocol, bytes, offset + 5, length - 5);
        if (found.usageSeen()) {
            usageSeen = true;
            usage = usage.merge(found.usage());
            costMicros = found.costMicros() >= 0 ? found.costMicros() : costMicros; // S-7: streams feed the EMA too
        }
    }

    private void append(byte[] bytes, int offset, int length) {
        if (length == 0 || overlong) {
            return;
        }
        if (carried + length > MAX_LINE) {
            overlong = true;
            carried = 0;
            return;
        }
        if (carried + length > carry.length) {
            carry = Arrays.copyOf(carry, Math.max(carried + length, Math.max(256, carry.length * 2)));
        }
        System.arraycopy(bytes, offset, carry, carried, length);
        carried += length;
    }

    static boolean contains(byte[] haystack, int offset, int length, byte[] needle) {
        int end = offset + length - needle.length;
        outer:
        for (int i = offset; i <= end; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
