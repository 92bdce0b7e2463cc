package dev.detour.bench.bare;

import dev.detour.adapter.upstream.Http1UpstreamClient;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * The stack's ceiling without Jetty (bench/stack-ceiling.sh): {@link BareForwarder}'s work — read the body, post it
 * with Detour's own pooled upstream client, copy status, content type and body back — behind the smallest
 * HTTP/1.1 server that carries the bench's requests: one thread per client connection, reading it with blocking
 * socket reads, so a request reaches its handler on the thread the kernel woke (Jetty's selector hands every
 * request to another thread first). Platform threads, or virtual threads on 21+ ({@code virtual}).
 *
 * <p>Not a server for anything but the bench's own well-formed requests: Content-Length bodies only, no limits,
 * no timeouts. It answers "how fast could Detour's stack forward on this machine today without Jetty's
 * selector model", which is what a connection-per-thread front for the relay would start from.
 *
 * <p>{@code java -cp detour.jar:classes ...ThreadPerConnectionForwarder PORT UPSTREAM [platform|virtual]}
 */
public final class ThreadPerConnectionForwarder {
    private static final int MAX_LINE = 8 * 1024;

    private final Http1UpstreamClient client = Http1UpstreamClient.withDefaults();
    private final String upstream;

    private ThreadPerConnectionForwarder(String upstream) {
        this.upstream = upstream;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean virtual = args.length > 2 && args[2].equals("virtual");
        ThreadFactory threads = virtual ? virtualThreads() : runnable -> {
            Thread thread = new Thread(runnable);
            thread.setDaemon(true);
            return thread;
        };
        ThreadPerConnectionForwarder forwarder = new ThreadPerConnectionForwarder(args[1]);
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress("127.0.0.1", port), 2048);
            System.out.println("thread-per-connection forwarder (" + (virtual ? "virtual" : "platform")
                    + " threads) ready on " + port + " → " + args[1]);
            while (true) {
                Socket connection = server.accept();
                connection.setTcpNoDelay(true);
                threads.newThread(() -> forwarder.serve(connection)).start();
            }
        }
    }

    /** {@code Thread.ofVirtual().factory()}, looked up so this compiles for 17 (bench/run.sh builds with --release 17). */
    private static ThreadFactory virtualThreads() throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
    }

    /** Request after request on one kept-alive connection, until the client closes it. */
    private void serve(Socket connection) {
        try (connection) {
            InputStream in = new BufferedInputStream(connection.getInputStream(), 16 * 1024);
            OutputStream out = connection.getOutputStream();
            byte[] line = new byte[MAX_LINE];
            int length;
            while ((length = readLine(in, line)) >= 0) {
                String requestLine = new String(line, 0, length, StandardCharsets.ISO_8859_1);
                String path = requestLine.substring(requestLine.indexOf(' ') + 1, requestLine.lastIndexOf(' '));
                int bodyLength = 0;
                List<Header> headers = new ArrayList<>(2);
                headers.add(new Header("Content-Type", "application/json"));
                while ((length = readLine(in, line)) > 0) {
                    String field = new String(line, 0, length, StandardCharsets.ISO_8859_1);
                    int colon = field.indexOf(':');
                    String name = field.substring(0, colon);
                    String value = field.substring(colon + 1).trim();
                    if (name.equalsIgnoreCase("Content-Length")) {
                        bodyLength = Integer.parseInt(value);
                    } else if (name.equalsIgnoreCase("Authorization")) {
                        headers.add(new Header("Authorization", value));
                    }
                }
                if (length < 0) {
                    return;
                }
                out.write(forward(path, headers, in.readNBytes(bodyLength)));
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            // the client went away, or sent what this bench server does not parse: the connection ends
        }
    }

    /** The whole answer, head and body, for one write. */
    private byte[] forward(String path, List<Header> headers, byte[] body) throws IOException {
        try (UpstreamResponse answer = client.send(new UpstreamRequest("POST", upstream + path, headers, body))) {
            String type = answer.header("Content-Type");
            byte[] bytes = answer.body().readAllBytes();
            byte[] head = ("HTTP/1.1 " + answer.status() + " \r\nContent-Type: "
                    + (type == null ? "application/octet-stream" : type) + "\r\nContent-Length: " + bytes.length
                    + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
            byte[] whole = new byte[head.length + bytes.length];
            System.arraycopy(head, 0, whole, 0, head.length);
            System.arraycopy(bytes, 0, whole, head.length, bytes.length);
            return whole;
        }
    }

    /** One line without its CRLF into {@code line}; its length, or -1 when the connection ended before it. */
    private static int readLine(InputStream in, byte[] line) throws IOException {
        int length = 0;
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                return length > 0 && line[length - 1] == '\r' ? length - 1 : length;
            }
            if (length == line.length) {
                throw new IOException("line longer than " + MAX_LINE + " bytes");
            }
            line[length++] = (byte) b;
        }
        return length == 0 ? -1 : length;
    }
}
