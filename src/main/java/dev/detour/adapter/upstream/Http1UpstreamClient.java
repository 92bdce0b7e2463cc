package dev.detour.adapter.upstream;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.UpstreamClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import dev.detour.gateway.wire.RequestSecrets;
import java.io.IOException;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLContext;
import org.slf4j.LoggerFactory;

/**
 * Detour's own pooled, blocking HTTP/1.1 client behind the {@link UpstreamClient} port: one write per request, the
 * answer parsed from the connection's own buffer, connections pooled per upstream address (session 39: a general
 * client's exchange chain, pool lease and message objects were a fifth of a bare forwarder's CPU, see
 * docs/performance.md). Bytes are relayed verbatim: no retries (the Forwarder owns retry policy, P-3), no redirects,
 * no decompression, no cookies. P-4: connect timeout (TCP and TLS) and a read gap, kept by {@link ReadGaps} rather
 * than socket timeouts; no total deadline.
 */
public final class Http1UpstreamClient implements UpstreamClient {
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(20);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(180);
    /** Many accounts often share one relay host: the per-address limit must not queue them. */
    public static final int DEFAULT_MAX_TOTAL = 2000;
    public static final int DEFAULT_MAX_PER_ROUTE = 1000;
    /**
     * Reuse checks on pooled connections, see {@link ConnectionPool}: reused unchecked while idle under 3 s, covered
     * by a background check every 250 ms (trusted for 500 ms) until closed as idle too long, checked at lease time
     * otherwise. The shortest common upstream keep-alive timeout is 5 s (Node.js, uvicorn); nginx 75 s.
     */
    static final Duration UNCHECKED_REUSE = Duration.ofSeconds(3);
    private static final Duration CHECK_TRUSTED_FOR = Duration.ofMillis(500);
    private static final long SWEEP_EVERY_MS = 250;
    /** How often {@link ReadGaps} looks for a read that waited past its gap: a cut comes at most this late. */
    private static final long READ_GAP_SWEEP_EVERY_MS = 100;
    private static final long EVICT_EVERY_MS = 5_000;
    /** An idle connection is closed after this long (and watched by the background check until then). */
    static final Duration WATCHED_REUSE = Duration.ofSeconds(50);
    /** A reused connection the upstream had closed fails within a round trip; one failing later was worked on. */
    static final Duration CLOSED_UNDER_REQUEST = Duration.ofSeconds(1);

    private final ReadGaps readGaps = new ReadGaps(System::nanoTime); // real time, as a socket timeout
    private final ConnectionPool pool;
    private final UpstreamUris uris = new UpstreamUris();
    private final LongSupplier nanoTime;
    private final SSLContext tls;
    private final ScheduledExecutorService sweeper;
    /** N-7: where streams wait for their next bytes (see {@link StreamPump#wanted}); null: each on its own thread. */
    private final StreamPump pump;
    private volatile boolean closed;
    /** Per-request timeouts and their messages: replaced by {@link #setTimeouts} when the settings change (U-5). */
    private volatile Timeouts timeouts;

    public Http1UpstreamClient(Duration connectTimeout, Duration readTimeout) {
        this(connectTimeout, readTimeout, DEFAULT_MAX_TOTAL, DEFAULT_MAX_PER_ROUTE);
    }

    public Http1UpstreamClient(Duration connectTimeout, Duration readTimeout, int maxTotal, int maxPerRoute) {
        this(connectTimeout, readTimeout, maxTotal, maxPerRoute, UNCHECKED_REUSE, System::nanoTime, true,
                defaultTls());
    }

    /** Tests: the reuse rules' settings and clock, https trusting the JDK's certificate authorities. */
    Http1UpstreamClient(Duration connectTimeout, Duration readTimeout, int maxTotal, int maxPerRoute,
            Duration uncheckedReuse, LongSupplier nanoTime, boolean sweepInBackground) {
        this(connectTimeout, readTimeout, maxTotal, maxPerRoute, uncheckedReuse, nanoTime, sweepInBackground,
                defaultTls());
    }

    /**
     * @param uncheckedReuse    how long a pooled connection is reused without any check (tests: zero)
     * @param nanoTime          the reuse rules' clock (tests move it; the read gap runs on real time)
     * @param sweepInBackground false in tests, which run {@link #checkIdleConnections} themselves (the read gap is
     *                          kept in the background either way)
     * @param tls               https connections' TLS (tests: one trusting a test certificate)
     */
    Http1UpstreamClient(Duration connectTimeout, Duration readTimeout, int maxTotal, int maxPerRoute,
            Duration uncheckedReuse, LongSupplier nanoTime, boolean sweepInBackground, SSLContext tls) {
        setTimeouts(connectTimeout, readTimeout);
        this.nanoTime = nanoTime;
        this.tls = tls;
        this.pool = new ConnectionPool(this::connect, maxTotal, maxPerRoute, uncheckedReuse.toNanos(),
                WATCHED_REUSE.toNanos(), CHECK_TRUSTED_FOR.toNanos(), nanoTime);
        this.pump = StreamPump.wanted() ? startPump() : null;
        this.sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "detour-upstream-idle-check");
            thread.setDaemon(true);
            return thread;
        });
        sweeper.scheduleWithFixedDelay(readGaps::sweep, READ_GAP_SWEEP_EVERY_MS, READ_GAP_SWEEP_EVERY_MS,
                TimeUnit.MILLISECONDS);
        sweeper.scheduleWithFixedDelay(() -> pool.evictIdle(System.nanoTime(), WATCHED_REUSE.toNanos()),
                EVICT_EVERY_MS, EVICT_EVERY_MS, TimeUnit.MILLISECONDS);
        if (sweepInBackground) {
            sweeper.scheduleWithFixedDelay(pool::sweep, SWEEP_EVERY_MS, SWEEP_EVERY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** The JDK's TLS: its certificate authorities and settings, as an {@code SSLSocket} had them by default. */
    private static SSLContext defaultTls() {
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK offers no TLS", e);
        }
    }

    private static StreamPump startPump() {
        try {
            return StreamPump.start();
        } catch (IOException e) {
            LoggerFactory.getLogger(Http1UpstreamClient.class).warn("no stream pump ({}): each stream waits on its own "
                    + "thread", e.toString());
            return null;
        }
    }

    /** N-7: how many times a stream's wait went to the pump (0 without one). */
    public long pumpedStreams() {
        return pump == null ? 0 : pump.streams();
    }

    /** One background pass of the pool, now (tests; the sweeper thread runs one every 250 ms). */
    void checkIdleConnections() {
        pool.sweep();
    }

    /** How many leases so far checked their connection then (tests). */
    long leaseTimeChecks() {
        return pool.leaseTimeChecks();
    }

    /** Applies new P-4 timeouts to the next request, without a restart (settings page). */
    public void setTimeouts(Duration connectTimeout, Duration readTimeout) {
        if (connectTimeout.isZero() || connectTimeout.isNegative() || readTimeout.isZero() || readTimeout.isNegative()) {
            throw new IllegalArgumentException("upstream timeouts must be positive"); // P-4: a stall always ends
        }
        this.timeouts = new Timeouts(connectTimeout.toNanos(), readTimeout.toNanos(),
                new TransportErrorMapper(connectTimeout, readTimeout));
    }

    public static Http1UpstreamClient withDefaults() {
        return new Http1UpstreamClient(DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT);
    }

    /**
     * One exchange, sent once more on a fresh connection when the pooled connection it reused without a check turns
     * out closed before any byte of an answer, within {@link #CLOSED_UNDER_REQUEST}: the upstream ended its
     * keep-alive as the request went out, so nothing was answered and no account failed. A connection checked at
     * lease time, a fresh one, or one that failed later (the upstream worked on the request) that closes without
     * answering is the upstream's failure and is reported as such. A request that must not be replayed (P-10) never
     * goes out twice: its lease trusts no background check, and a connection closed under it fails the attempt.
     */
    @Override
    public UpstreamResponse send(UpstreamRequest request) throws UpstreamTransportException {
        Timeouts timeouts = this.timeouts;
        UpstreamUris.Target target;
        try {
            target = uris.of(request.url());
        } catch (IllegalArgumentException e) {
            // The URL may carry a key (?key=…): name the problem, never the URL.
            throw new UpstreamTransportException(new TransportError(TransportErrorType.OTHER, "invalid upstream url"));
        }
        byte[] head = RequestHead.encode(request.method(), target, request.headers(), request.body());
        for (int sends = 1; ; sends++) {
            long started = nanoTime.getAsLong();
            UpstreamConnection connection = null;
            try {
                connection = pool.lease(target.route(), request.replayable(), timeouts.connectNanos);
                connection.startExchange(timeouts.readNanos);
                connection.send(head, request.body());
                return new Http1Response(connection, pool, pump, ResponseHead.read(connection.input()), request,
                        timeouts.errors);
            } catch (IOException | RuntimeException e) {
                boolean reusedUnchecked = connection != null && connection.reusedUnchecked;
                if (connection != null) {
                    connection.reset();
                }
                boolean closedUnderIt = reusedUnchecked && TransportErrorMapper.noAnswer(e)
                        && nanoTime.getAsLong() - started < CLOSED_UNDER_REQUEST.toNanos();
                if (sends > 1 || !request.replayable() || !closedUnderIt) {
                    throw timeouts.errors.toException(e, RequestSecrets.of(request));
                }
            }
        }
    }

    private UpstreamConnection connect(UpstreamUris.Route route) throws IOException {
        return UpstreamConnection.open(route, timeouts.connectNanos, readGaps, tls, nanoTime.getAsLong());
    }

    @Override
    public boolean closed() {
        return closed;
    }

    /** Closes every connection: exchanges still open fail (D-3: after the shutdown's grace). */
    @Override
    public void close() {
        closed = true; // before the cut: the exchanges it ends see it set
        sweeper.shutdownNow();
        if (pump != null) {
            pump.close(); // its streams go back to their threads, whose reads the pool's close then ends
        }
        pool.close();
    }

    private record Timeouts(long connectNanos, long readNanos, TransportErrorMapper errors) {
    }
}
