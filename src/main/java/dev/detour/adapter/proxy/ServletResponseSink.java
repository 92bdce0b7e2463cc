package dev.detour.adapter.proxy;

import dev.detour.gateway.Header;
import dev.detour.gateway.ResponseSink;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;

/** {@link ResponseSink} over a servlet response; IO errors on write mean the client went away. */
final class ServletResponseSink implements ResponseSink {
    private final HttpServletResponse response;
    private ServletOutputStream out;

    ServletResponseSink(HttpServletResponse response) {
        this.response = response;
    }

    @Override
    public void begin(int status, List<Header> headers) {
        response.setStatus(status);
        for (Header h : headers) {
            response.addHeader(h.name(), h.value());
        }
        try {
            out = response.getOutputStream();
        } catch (IOException e) {
            out = null;
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws ClientGoneException {
        try {
            if (out == null) {
                throw new IOException("no output stream");
            }
            out.write(bytes, offset, length);
        } catch (IOException e) {
            throw new ClientGoneException(e);
        }
    }

    /** Content-Length set first: Jetty then sends headers and body together and completes at the last byte. */
    @Override
    public void writeWhole(byte[] body) throws ClientGoneException {
        response.setContentLength(body.length);
        write(body, 0, body.length);
    }

    @Override
    public void flush() throws ClientGoneException {
        try {
            if (out != null) {
                out.flush();
            }
        } catch (IOException e) {
            throw new ClientGoneException(e);
        }
    }

    @Override
    public boolean committed() {
        return out != null;
    }
}
