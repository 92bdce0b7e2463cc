package dev.detour.adapter.proxy;

import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.ResponseSink;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletApiResponse;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.EofException;

/** {@link ResponseSink} over a servlet response; IO errors on write mean the client went away. */
final class ServletResponseSink implements ResponseSink {
    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private ServletOutputStream out;
    private ClientGoneWatch watch;

    ServletResponseSink(HttpServletRequest request, HttpServletResponse response) {
        this.request = request;
        this.response = response;
    }

    /** L-2: see {@link ClientGoneWatch}; a connection Detour cannot watch is never reported gone. */
    @Override
    public Runnable watchGone(Runnable action) {
        EndPoint endPoint = ServletContextRequest.getServletContextRequest(request).getConnectionMetaData()
                .getConnection().getEndPoint();
        watch = ClientGoneWatch.start(endPoint, action);
        return watch::stop;
    }

    @Override
    public void begin(int status, List<Header> headers) {
        response.setStatus(status);
        if (watch != null && watch.consumedBytes()) {
            response.setHeader("Connection", "close");
        }
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

    /**
     * F-4': Jetty's channel abort drops the connection; the servlet returning afterwards completes
     * nothing, so the terminating {@code 0\r\n\r\n} chunk is never sent (StreamBreakIT reads the raw bytes).
     */
    @Override
    public void abort() {
        ServletResponse unwrapped = response;
        while (unwrapped instanceof ServletResponseWrapper wrapper) {
            unwrapped = wrapper.getResponse();
        }
        if (unwrapped instanceof ServletApiResponse api) {
            api.getServletChannel().abort(new EofException("upstream stream broke; client stream aborted"));
        } else {
            throw new IllegalStateException("cannot abort a " + unwrapped.getClass().getName());
        }
    }

    @Override
    public boolean committed() {
        return out != null;
    }
}
