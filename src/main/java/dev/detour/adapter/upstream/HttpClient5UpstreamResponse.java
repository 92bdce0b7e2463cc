package dev.detour.adapter.upstream;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.wire.RequestSecrets;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;

/**
 * One open upstream exchange. The body is the live entity stream; its end returns the
 * connection to the pool, anything short of the end drops it (a half-read connection is poison).
 */
final class HttpClient5UpstreamResponse implements UpstreamResponse {
    private static final TransportError ABORTED =
            new TransportError(TransportErrorType.OTHER, "aborted: the connection was dropped by Detour");

    private final HttpUriRequestBase upstreamRequest;
    private final ClassicHttpResponse upstreamResponse;
    private final UpstreamRequest request;
    private final TransportErrorMapper errors;
    private final List<Header> headers;
    private final InputStream content;
    private final BodyStream body;
    private volatile boolean fullyRead;
    private volatile boolean aborted;
    private volatile boolean closed;

    HttpClient5UpstreamResponse(HttpUriRequestBase upstreamRequest, ClassicHttpResponse upstreamResponse,
                                UpstreamRequest request, TransportErrorMapper errors) throws IOException {
        this.upstreamRequest = upstreamRequest;
        this.upstreamResponse = upstreamResponse;
        this.request = request;
        this.errors = errors;
        this.headers = endToEndHeaders(upstreamResponse);
        HttpEntity entity = upstreamResponse.getEntity();
        // No entity (204, 304, HEAD): HttpClient has already returned the connection.
        this.content = entity == null ? InputStream.nullInputStream() : entity.getContent();
        this.fullyRead = entity == null || entity.getContentLength() == 0;
        this.body = new BodyStream();
    }

    @Override
    public int status() {
        return upstreamResponse.getCode();
    }

    @Override
    public List<Header> headers() {
        return headers;
    }

    @Override
    public String header(String name) {
        for (Header header : headers) {
            if (header.name().equalsIgnoreCase(name)) {
                return header.value();
            }
        }
        return null;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public void abort() {
        if (aborted) {
            return;
        }
        aborted = true;
        // Cancel closes the leased connection at once (RST), from any thread, even mid-read;
        // once the connection went back to the pool it is a no-op, so it never hits a reused one.
        upstreamRequest.cancel();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!fullyRead || aborted) {
            abort();
            return;
        }
        try {
            upstreamResponse.close();
        } catch (IOException e) {
            abort();
        }
    }

    private static List<Header> endToEndHeaders(ClassicHttpResponse response) {
        org.apache.hc.core5.http.Header[] received = response.getHeaders();
        Set<String> named = connectionTokens(response);
        List<Header> kept = new ArrayList<>(received.length);
        for (org.apache.hc.core5.http.Header header : received) {
            String name = header.getName();
            boolean namedInConnection = !named.isEmpty() && named.contains(name.toLowerCase(Locale.ROOT));
            if (!HeaderPolicy.isHopByHop(name) && !namedInConnection) {
                kept.add(new Header(name, header.getValue()));
            }
        }
        return Collections.unmodifiableList(kept);
    }

    /** RFC 9110 §7.6.1: headers named in Connection are hop-by-hop too. */
    private static Set<String> connectionTokens(ClassicHttpResponse response) {
        org.apache.hc.core5.http.Header[] connection = response.getHeaders("Connection");
        if (connection.length == 0) {
            return Set.of();
        }
        Set<String> tokens = new TreeSet<>();
        for (org.apache.hc.core5.http.Header header : connection) {
            for (String token : header.getValue().split(",")) {
                tokens.add(token.trim().toLowerCase(Locale.ROOT));
            }
        }
        return tokens;
    }

    private UpstreamTransportException failure(IOException e) {
        if (aborted) {
            return new UpstreamTransportException(ABORTED, e);
        }
        return errors.toException(e, RequestSecrets.of(request));
    }

    /** Bytes already buffered must not leak out after an abort: the caller asked for the end. */
    private void ensureNotAborted() throws UpstreamTransportException {
        if (aborted) {
            throw new UpstreamTransportException(ABORTED);
        }
    }

    /** The live entity stream; failures come out as {@link UpstreamTransportException}. */
    private final class BodyStream extends InputStream {
        @Override
        public int read() throws IOException {
            ensureNotAborted();
            try {
                int b = content.read();
                if (b < 0) {
                    fullyRead = true;
                }
                return b;
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            ensureNotAborted();
            try {
                int n = content.read(buffer, offset, length);
                if (n < 0) {
                    fullyRead = true;
                }
                return n;
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return content.available();
            } catch (IOException e) {
                throw failure(e);
            }
        }

        @Override
        public void close() {
            HttpClient5UpstreamResponse.this.close();
        }
    }
}
