package dev.detour.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

/**
 * X-4's 408s under load, on a real Jetty: a worker held up between two reads of a body that arrived whole
 * (what a loaded machine, a GC pause or a parked virtual thread does) was charged to the client by Jetty's
 * own minimum rate; Detour's {@link MinimumBodyRate} does not charge it.
 */
class MinimumBodyRateIT {
    private static final String BODY = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\""
            + "a".repeat(240) + "\"}]}"; // 300 bytes or so: 0.29 s of slack at 1,024 B/s

    /** Reads the first piece of the body, is held up for 700 ms (the worker waiting for a CPU), reads on. */
    private static final class HeldUpReader extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            InputStream in = request.getInputStream();
            byte[] buffer = new byte[64 * 1024];
            int total = in.read(buffer);
            try {
                Thread.sleep(700); // the held-up worker itself, not a wait for the result
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            int n;
            while ((n = in.read(buffer)) > 0) {
                total += n;
            }
            response.getWriter().print(total);
        }
    }

    /**
     * The same held-up reader as a core handler, the relay's kind (its content read through the core request):
     * it says when it has read the body's first piece, so the client sends the rest while it is held up.
     */
    private static final class HeldUpCoreReader extends Handler.Abstract {
        final CountDownLatch firstPieceRead = new CountDownLatch(1);

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            InputStream in = Content.Source.asInputStream(request);
            byte[] buffer = new byte[64 * 1024];
            int total = in.read(buffer);
            firstPieceRead.countDown();
            try {
                Thread.sleep(700); // the held-up worker itself, not a wait for the result
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            int n;
            try {
                while ((n = in.read(buffer)) > 0) {
                    total += n;
                }
            } catch (IOException e) {
                Response.writeError(request, response, callback, 408, e.getMessage());
                return true;
            }
            Content.Sink.write(response, true, Integer.toString(total), callback);
            return true;
        }
    }

    private static HttpResponse<String> post(Server server) throws Exception {
        server.start();
        try {
            int port = ((NetworkConnector) server.getConnectors()[0]).getLocalPort();
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/body"))
                    .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());
        } finally {
            server.stop();
        }
    }

    @Test
    void jettysOwnMinimumRateCutABodyThatArrivedWholeWhenTheWorkerWasHeldUp() throws Exception {
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setMinRequestDataRate(1024);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(new HeldUpReader()), "/body");
        server.setHandler(context);
        assertEquals(408, post(server).statusCode(), "the cause: Detour's delay counted as the client's slowness");
    }

    @Test
    void detoursMinimumRateReadsTheSameBodyWhole() throws Exception {
        Server server = JettyServer.newServer("127.0.0.1", 0, Map.of("/body", new HeldUpReader()), null, null,
                Duration.ofSeconds(5), ClientGuards.timeoutsOnly(Duration.ofSeconds(30), 1024));
        HttpResponse<String> answer = post(server);
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(Integer.toString(BODY.length()), answer.body());
    }

    /**
     * The relay's face of the rule: the body's second half reached the server while the handler was held up
     * (150 bytes in 0.7 s is below 1,024 B/s), so the read after the hold-up finds it waiting: Detour's delay.
     */
    @Test
    void aCoreHandlerHeldUpBetweenTwoPiecesThatBothArrivedIsNotCharged() throws Exception {
        HeldUpCoreReader reader = new HeldUpCoreReader();
        Server server = JettyServer.newServer("127.0.0.1", 0, Map.of(), reader, null,
                Duration.ofSeconds(5), ClientGuards.timeoutsOnly(Duration.ofSeconds(30), 1024));
        server.start();
        try (Socket socket = new Socket("127.0.0.1", ((NetworkConnector) server.getConnectors()[0]).getLocalPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /v1/body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + BODY.length() + "\r\nConnection: close\r\n\r\n" + BODY.substring(0, 150))
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertTrue(reader.firstPieceRead.await(10, TimeUnit.SECONDS), "the handler read the first piece");
            out.write(BODY.substring(150).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
            assertTrue(answer.endsWith("\r\n\r\n" + BODY.length()), answer);
        } finally {
            server.stop();
        }
    }
}
