package dev.detour.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Detour's Jetty server as built for production, on loopback. */
@Timeout(60) // a hang guard only
class JettyServerIT {

    /**
     * N-7: no per-connection header field cache (a 96 KiB table per client connection that carried two requests:
     * 78 MB of heap with 1,000 held streams); requests on one kept-alive connection still read their own headers.
     */
    @Test
    void aKeptAliveConnectionReadsEachRequestsOwnHeadersWithoutAPerConnectionCache() throws Exception {
        HttpServlet echo = text(request -> request.getHeader("Accept") + "|" + request.getHeader("x-v"));
        Server server = JettyServer.newServer("127.0.0.1", 0, Map.of("/*", echo), null, Duration.ofSeconds(1));
        server.start();
        try {
            ServerConnector connector = (ServerConnector) server.getConnectors()[0];
            assertEquals(0, connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration()
                    .getHeaderCacheSize());
            try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
                OutputStream out = socket.getOutputStream();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                String[][] asked = {{"application/json", "one"}, {"application/json", "two"}, {"text/plain", "two"}};
                for (String[] headers : asked) {
                    out.write(("GET /echo HTTP/1.1\r\nHost: x\r\nAccept: " + headers[0] + "\r\nx-v: " + headers[1]
                            + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    assertEquals(headers[0] + "|" + headers[1], readBody(in));
                }
            }
        } finally {
            server.stop();
        }
    }

    /**
     * N-8: on platform threads (Java 17) requests run at the lowest priority, so the event writer keeps pace with
     * them (nice 10 under the production flags); on virtual threads (21+) at the normal one, as every thread.
     */
    @Test
    void requestsRunAtTheLowestPriorityOnPlatformThreadsOnly() throws Exception {
        HttpServlet priority = text(request -> VirtualThreads.isVirtualThread() + " "
                + Thread.currentThread().getPriority());
        Server server = JettyServer.newServer("127.0.0.1", 0, Map.of("/*", priority), null, Duration.ofSeconds(1));
        server.start();
        try {
            ServerConnector connector = (ServerConnector) server.getConnectors()[0];
            try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
                socket.getOutputStream()
                        .write("GET /p HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String answer = readBody(new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8)));
                assertEquals(VirtualThreads.areSupported()
                        ? "true " + Thread.NORM_PRIORITY
                        : "false " + Thread.MIN_PRIORITY, answer);
            }
        } finally {
            server.stop();
        }
    }

    /** A servlet answering each GET with {@code answer}'s text, its length stated. */
    private static HttpServlet text(Function<HttpServletRequest, String> answer) {
        return new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                byte[] body = answer.apply(request).getBytes(StandardCharsets.UTF_8);
                response.setContentType("text/plain");
                response.setContentLength(body.length);
                response.getOutputStream().write(body);
            }
        };
    }

    private static String readBody(BufferedReader in) throws IOException {
        assertEquals("HTTP/1.1 200 OK", in.readLine());
        int length = -1;
        for (String line = in.readLine(); !line.isEmpty(); line = in.readLine()) {
            if (line.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        char[] body = new char[length];
        int read = 0;
        while (read < length) {
            read += in.read(body, read, length - read);
        }
        return new String(body);
    }
}
