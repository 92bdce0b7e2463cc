package dev.detour.server;

import dev.detour.config.ClientLimits;
import dev.detour.server.front.JettyHandOff;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpServlet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** Builds an unstarted Jetty server from path-spec → servlet routes; tests start it on port 0. */
public final class JettyServer {
    public static final int ACCEPT_QUEUE = 2048;
    /**
     * N-8, D-2: the priority of the request threads where every request has a platform thread of its own (Java 17).
     * There the one event-writer thread got a thread's share of two cores busy with 16+ request threads and fell
     * seconds behind under sustained load: newer events waited in the journal, were stored after the load, and
     * reading them back cost ~20 % more CPU per request (docs/performance.md, session 40). The lowest Java priority,
     * with the production flags' {@code -XX:ThreadPriorityPolicy=1 -XX:JavaPriority1_To_OSPriority=10}
     * ({@code bin/jvm-flags}), is nice 10: the writer, MariaDB and the other nice-0 threads win a contested core and
     * keep pace; served throughput is the same (nice 4, the JVM's own mapping, sufficed at Jetty's 8k req/s, not at
     * the front's 12k: session 43). The front's platform connection threads run at this priority too. Without that
     * flag the JVM ignores thread priorities. On virtual threads (21+) a request runs at its carrier's priority, and
     * the carriers are lowered to this one too ({@link CarrierPriority}).
     */
    public static final int PLATFORM_REQUEST_THREAD_PRIORITY = Thread.MIN_PRIORITY;

    private JettyServer() {
    }

    public static Server newServer(String bind, int port, Map<String, HttpServlet> routes) {
        return newServer(bind, port, routes, null, Duration.ofSeconds(30));
    }

    /**
     * @param customizer  an extra request customizer (O-3 trusted https), or null
     * @param stopTimeout O-5: how long {@code stop()} waits for in-flight requests and streams
     */
    public static Server newServer(String bind, int port, Map<String, HttpServlet> routes,
            HttpConfiguration.Customizer customizer, Duration stopTimeout) {
        return newServer(bind, port, routes, null, customizer, stopTimeout, ClientGuards.timeoutsOnly(
                ClientLimits.DEFAULTS.requestTimeout(), ClientLimits.DEFAULTS.minRequestBytesPerSecond()));
    }

    /**
     * @param relay  a core handler asked first (the relay: it declines the paths it does not serve), or null
     * @param guards X-4: client timeouts, minimum body rate, per-address connection cap, session listener
     */
    public static Server newServer(String bind, int port, Map<String, HttpServlet> routes, Handler relay,
            HttpConfiguration.Customizer customizer, Duration stopTimeout, ClientGuards guards) {
        return newServer(bind, port, routes, relay, customizer, stopTimeout, guards, false);
    }

    /**
     * @param behindFront N-8: the public port is the front's ({@code server.front.FrontServer}); Jetty's connector
     *                    is the {@link JettyHandOff} that takes the connections the front passes on
     */
    public static Server newServer(String bind, int port, Map<String, HttpServlet> routes, Handler relay,
            HttpConfiguration.Customizer customizer, Duration stopTimeout, ClientGuards guards, boolean behindFront) {
        // N-3: every open stream holds a thread on Java 17 (no virtual threads), so 1,000 concurrent
        // streams need well over 1,000 threads; idle ones time out and cost only their reserved stack
        QueuedThreadPool threads = new QueuedThreadPool(2048, 16);
        threads.setName("detour-http");
        // Virtual threads only where the JVM has them: passing an executor on 17 throws.
        if (VirtualThreads.areSupported()) {
            threads.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("detour-vt"));
        } else {
            threads.setThreadsPriority(PLATFORM_REQUEST_THREAD_PRIORITY);
        }
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        // encoded separators, dot and empty segments, bad encodings and the like are refused with
        // 400 before routing, instead of being decoded into a path a rule in front did not mean
        http.setUriCompliance(UriCompliance.from(UriCompliance.NO_VIOLATION));
        // a request's headers are capped at Jetty's 8 KiB (stated here, not left implicit); Jetty's own
        // minimum body rate stays off: it charged Detour's own delays to the client (MinimumBodyRate)
        http.setRequestHeaderSize(8 * 1024);
        // N-7: Jetty gives each client connection a header field cache (1,024 entries, a 96 KiB table) once it
        // carries a second request; 1,000 held streams kept 78 MB of heap in them (heap dump of the hold), for
        // fewer small objects per request on a reused connection
        http.setHeaderCacheSize(0);
        if (customizer != null) {
            http.addCustomizer(customizer);
        }
        ServerConnector connector;
        if (behindFront) {
            connector = new JettyHandOff(server, new HttpConnectionFactory(http));
        } else {
            connector = new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(bind);
            connector.setPort(port);
        }
        // a client silent for this long while its headers or body arrive (or between requests) is
        // closed: before, 300 s per connection let slow clients pin worker threads. An admitted proxy
        // request gets the old 300 s back for its answer (AnswerIdle); trusted proxies keep it throughout.
        connector.setIdleTimeout(guards.requestTimeout().toMillis());
        if (guards.connections() != null) {
            connector.addEventListener(guards.connections());
        }
        // N-3: the JDK's default listen backlog is 50; a burst of new connections (1,000 streams opening
        // at once) overflowed it and the kernel dropped handshakes, which clients retry only after 1-7 s
        // (the "only ~250 of 1,000 streams receiving" finding). nginx uses 511; the kernel caps at somaxconn.
        connector.setAcceptQueueSize(ACCEPT_QUEUE);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SESSIONS);
        context.setContextPath("/");
        configureSessions(context.getSessionHandler());
        context.setErrorHandler(new SecureErrorHandler());
        if (guards.sessionListener() != null) {
            context.getSessionHandler().addEventListener(guards.sessionListener());
        }
        routes.forEach((pathSpec, servlet) -> context.addServlet(holder(servlet), pathSpec));
        // a body trickled below this average rate is answered 408 and its worker thread released
        MinimumBodyRate bodyRate = new MinimumBodyRate(guards.minRequestBytesPerSecond(), System::nanoTime);
        context.addFilter(new FilterHolder(bodyRate), "/*", EnumSet.of(DispatcherType.REQUEST));
        Handler routed = relay == null ? context : new Handler.Sequence(bodyRate.around(relay), context);
        // O-5: on stop, the connector stops accepting and the gate waits for in-flight requests
        server.setHandler(new RequestGuard(new DrainingGate(routed)));
        server.setErrorHandler(new SecureErrorHandler());
        server.setStopTimeout(Math.max(1, stopTimeout.toMillis()));
        server.setStopAtShutdown(false);
        return server;
    }

    /** U-1 console sessions: cookie only, HttpOnly, SameSite=Lax, Secure on https requests, 12 h idle. */
    private static void configureSessions(SessionHandler sessions) {
        sessions.setSessionCookie("DETOUR_SESSION");
        sessions.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.COOKIE));
        sessions.setHttpOnly(true);
        sessions.setSameSite(HttpCookie.SameSite.LAX);
        sessions.setSecureRequestOnly(true);
        sessions.setMaxInactiveInterval((int) Duration.ofHours(12).toSeconds());
    }

    /**
     * D-3 (O-5): stops accepting (the listening socket closes; a request arriving on an open keep-alive
     * connection is refused by {@link DrainingGate}: 503, logged, connection closed) and waits up to {@code grace} for the requests and streams in flight to
     * finish; the server keeps serving them. Calling it again waits on the same drain.
     *
     * <p>Not Jetty's own graceful connector shutdown: that also sets every connection's idle timeout to
     * 1 s ({@code AbstractConnector.shutdown()}, its default shutdownIdleTimeout), the connections of the
     * requests being drained included, whose answers may take minutes (AnswerIdle gives them 300 s). A
     * write still pending when that timer fired failed: a fully answered request was now and then logged
     * as cancelled (one in 20 in one ShutdownProcessIT run). Idle keep-alive connections are closed by
     * {@code stop()} afterwards.
     *
     * @return true when nothing is in flight any more
     */
    public static boolean drain(Server server, Duration grace) {
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof NetworkConnector listening) {
                listening.close();
            }
        }
        DrainingGate requests = server.getDescendant(DrainingGate.class);
        if (requests == null) {
            return true;
        }
        try {
            requests.shutdown().get(Math.max(1, grace.toMillis()), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The connector that takes the front's connections (a server built {@code behindFront}). */
    public static JettyHandOff handOff(Server server) {
        return (JettyHandOff) server.getConnectors()[0];
    }

    public static int port(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    /** A servlet that takes uploads gets its multipart limits on its registration. */
    private static ServletHolder holder(HttpServlet servlet) {
        ServletHolder holder = new ServletHolder(servlet);
        if (servlet instanceof TakesUploads takes && takes.uploads() != null) {
            holder.getRegistration().setMultipartConfig(takes.uploads());
        }
        return holder;
    }
}
