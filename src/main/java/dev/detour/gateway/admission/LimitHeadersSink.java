package dev.detour.gateway.admission;

import dev.detour.core.keys.LimitCheck;
import dev.detour.core.keys.LimitKind;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.NonBlockingClient;
import dev.detour.gateway.port.ResponseSink;
import java.util.ArrayList;
import java.util.List;

/**
 * L-3: the answer's head carries the key's tightest limit as {@code x-ratelimit-limit-<kind>},
 * {@code -remaining-<kind>} and {@code -reset-<kind>} (a duration such as {@code 12s}, OpenAI's form), on
 * every answer: success, refusal, error and stream alike. The upstream's own {@code x-ratelimit-*} headers
 * describe the account, not the key, so they give way; {@code anthropic-ratelimit-*} pass as before.
 */
public final class LimitHeadersSink implements ResponseSink {
    private static final String PREFIX = "x-ratelimit-";
    private final ResponseSink client;
    private final List<Header> limitHeaders;

    private LimitHeadersSink(ResponseSink client, List<Header> limitHeaders) {
        this.client = client;
        this.limitHeaders = limitHeaders;
    }

    /** {@code client} itself when the key has no limits. */
    public static ResponseSink around(ResponseSink client, LimitCheck.Verdict verdict) {
        if (verdict == null || verdict.tightest() == null) {
            return client;
        }
        return new LimitHeadersSink(client, headers(verdict.tightest()));
    }

    public static List<Header> headers(LimitCheck.Headroom tightest) {
        String[] names = NAMES[tightest.kind().ordinal()];
        return List.of(new Header(names[0], Long.toString(tightest.limit())),
                new Header(names[1], Long.toString(tightest.remaining())),
                new Header(names[2], tightest.resetSeconds() + "s"));
    }

    /** Each kind's three header names, made once rather than concatenated on every answer (N-8). */
    private static final String[][] NAMES = names();

    private static String[][] names() {
        LimitKind[] kinds = LimitKind.values();
        String[][] names = new String[kinds.length][];
        for (LimitKind kind : kinds) {
            names[kind.ordinal()] = new String[] {PREFIX + "limit-" + kind.suffix(),
                PREFIX + "remaining-" + kind.suffix(), PREFIX + "reset-" + kind.suffix()};
        }
        return names;
    }

    @Override
    public void begin(int status, List<Header> headers) {
        List<Header> out = new ArrayList<>(headers.size() + limitHeaders.size());
        for (Header h : headers) {
            if (!h.name().regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
                out.add(h);
            }
        }
        out.addAll(limitHeaders);
        client.begin(status, out);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws ClientGoneException {
        client.write(bytes, offset, length);
    }

    @Override
    public void flush() throws ClientGoneException {
        client.flush();
    }

    @Override
    public void writeWhole(byte[] body) throws ClientGoneException {
        client.writeWhole(body);
    }

    @Override
    public void abort() {
        client.abort();
    }

    @Override
    public Runnable watchGone(Runnable action) {
        return client.watchGone(action);
    }

    @Override
    public boolean committed() {
        return client.committed();
    }

    @Override
    public NonBlockingClient nonBlocking() {
        return client.nonBlocking();
    }
}
