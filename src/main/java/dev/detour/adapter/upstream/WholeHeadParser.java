package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.InputStream;
import org.apache.hc.core5.http.impl.io.DefaultHttpResponseParserFactory;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.io.HttpMessageParser;
import org.apache.hc.core5.http.io.HttpMessageParserFactory;
import org.apache.hc.core5.http.io.HttpTransportMetrics;
import org.apache.hc.core5.http.io.SessionInputBuffer;
import org.apache.hc.core5.util.CharArrayBuffer;

/**
 * HttpCore's response parser (the one a connection uses when given none), except that an answer whose head the upstream cut short is a closed
 * connection. HttpCore takes the end of the connection for the end of the headers, so {@code HTTP/1.1 200}
 * followed by a close reads as a complete 200 with an empty, close-delimited body: Detour then judged a
 * broken connection as the model's empty answer (model scope, "upstream returned an empty body") instead of
 * the transport failure it is (F-3: account scope, F-7). Found by the D-6 fault matrix, truncating the
 * answer inside its status line and inside its headers. A head that ends with its blank line is untouched,
 * however its body is delimited.
 */
final class WholeHeadParser implements HttpMessageParser<ClassicHttpResponse> {
    static final HttpMessageParserFactory<ClassicHttpResponse> FACTORY = new HttpMessageParserFactory<>() {
        @Override
        public HttpMessageParser<ClassicHttpResponse> create() {
            return new WholeHeadParser(DefaultHttpResponseParserFactory.INSTANCE.create());
        }

        @Override
        public HttpMessageParser<ClassicHttpResponse> create(Http1Config config) {
            return new WholeHeadParser(DefaultHttpResponseParserFactory.INSTANCE.create(config));
        }
    };

    private final HttpMessageParser<ClassicHttpResponse> parser;

    private WholeHeadParser(HttpMessageParser<ClassicHttpResponse> parser) {
        this.parser = parser;
    }

    @Override
    public ClassicHttpResponse parse(SessionInputBuffer buffer, InputStream in) throws IOException, HttpException {
        EndWatch watched = new EndWatch(buffer);
        ClassicHttpResponse response = parser.parse(watched, in);
        if (response != null && watched.ended) {
            throw new ConnectionClosedException("the upstream closed the connection inside the response head");
        }
        return response; // null (no byte at all) stays HttpClient's own NoHttpResponseException
    }

    /** The session buffer, noting whether a head line met the end of the connection instead of its CRLF. */
    private static final class EndWatch implements SessionInputBuffer {
        private final SessionInputBuffer buffer;
        boolean ended;

        EndWatch(SessionInputBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public int readLine(CharArrayBuffer line, InputStream in) throws IOException {
            int read = buffer.readLine(line, in);
            if (read < 0) {
                ended = true;
            }
            return read;
        }

        @Override
        public int length() {
            return buffer.length();
        }

        @Override
        public int capacity() {
            return buffer.capacity();
        }

        @Override
        public int available() {
            return buffer.available();
        }

        @Override
        public int read(byte[] b, int off, int len, InputStream in) throws IOException {
            return buffer.read(b, off, len, in);
        }

        @Override
        public int read(byte[] b, InputStream in) throws IOException {
            return buffer.read(b, in);
        }

        @Override
        public int read(InputStream in) throws IOException {
            return buffer.read(in);
        }

        @Override
        public HttpTransportMetrics getMetrics() {
            return buffer.getMetrics();
        }
    }
}
