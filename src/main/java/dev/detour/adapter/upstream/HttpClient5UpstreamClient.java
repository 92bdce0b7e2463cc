package dev.detour.adapter.upstream;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.gateway.wire.RequestSecrets;
import dev.detour.gateway.port.UpstreamClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.IdleConnectionEvictor;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The one pooled, blocking HttpClient 5 behind the {@link UpstreamClient} port. Bytes are
 * relayed verbatim: no retries (the Forwarder owns retry policy, P-3), no redirects, no
 * decompression, no cookies. P-4: connect timeout and a read gap (kept by {@link ReadGaps}, not the
 * socket), no total deadline.
 */
public final class HttpClient5UpstreamClient implements UpstreamClient {
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(20);
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(180);
    /** Many accounts often share one relay host: the per-route limit must not queue them. */
    public static final int DEFAULT_MAX_TOTAL = 2000;
    public static final int DEFAULT_MAX_PER_ROUTE = 1000;
    /**
     * Reuse checks on pooled connections, see {@link WatchedConnections}: reused unchecked while idle under
     * 3 s, covered by a background check every 250 ms (trusted for 500 ms) until the evictor closes them,
     * checked at lease time otherwise. The shortest common upstream keep-alive timeout is 5 s (Node.js,
     * uvicorn); nginx 75 s.
     */
    static final Duration UNCHECKED_REUSE = Duration.ofSeconds(3);
    private static final Duration CHECK_TRUSTED_FOR = Duration.ofMillis(500);
    private static final long SWEEP_EVERY_MS = 250;
    /** How often {@link ReadGaps} looks for a read that waited past its gap: a cut comes at most this late. */
    private static final long READ_GAP_SWEEP_EVERY_MS = 100;
    private static final Duration EVICT_IDLE_AFTER = Duration.ofSeconds(50);
    static final Duration WATCHED_REUSE = EVICT_IDLE_AFTER;
    /** A reused connection the upstream had closed fails within a round trip; one failing later was worked on. */
    static final Duration CLOSED_UNDER_REQUEST = Duration.ofSeconds(1);

    private final CloseableHttpClient client;
    private final IdleConnectionEvictor evictor;
    private final WatchedConnections connections;
    private final UpstreamUris uris = new UpstreamUris();
    private volatile boolean closed;
    private final ScheduledExecutorService sweeper;
    private volatile TransportErrorMapper errors;
    /** Per-request timeouts: replaced by {@link #setTimeouts} when the runtime settings change (U-5). */
    private volatile RequestConfig requestConfig;

    public HttpClient5UpstreamClient(Duration connectTimeout, Duration readTimeout) {
        this(connectTimeout, readTimeout, DEFAULT_MAX_TOTAL, DEFAULT_MAX_PER_ROUTE);
    }

    public HttpClient5UpstreamClient(Duration connectTimeout, Duration readTimeout, int maxTotal, int maxPerRoute) {
        this(connectTimeout, readTimeout, maxTotal, maxPerRoute, UNCHECKED_REUSE, System::nanoTime, true);
    }

    /**
     * HttpClient's minimal client: the exchange without the protocol chain (redirects, retries, auth,
     * cookies, decompression), all of which Detour turns off anyway; that chain parsed every request's URI
     * again for auth scopes and was a quarter of the client's CPU per request. Every request carries its
     * own {@link RequestConfig}, so the P-4 timeouts still apply per request.
     *
     * @param uncheckedReuse how long a pooled connection is reused without any check (tests: zero)
     * @param nanoTime       the reuse rules' clock (tests move it; HttpClient's own timers are unaffected)
     * @param sweepInBackground false in tests, which run {@link #checkIdleConnections} themselves (the read
     *                          gap is kept in the background either way)
     */
    HttpClient5UpstreamClient(Duration connectTimeout, Duration readTimeout, int maxTotal, int maxPerRoute,
            Duration uncheckedReuse, LongSupplier nanoTime, boolean sweepInBackground) {
        setTimeouts(connectTimeout, readTimeout);
        // the read gap runs on real time, as the socket timeout it replaces did (nanoTime is the reuse rules')
        ReadGaps readGaps = new ReadGaps(System::nanoTime);
        this.connections = new WatchedConnections(uncheckedReuse.toNanos(), WATCHED_REUSE.toNanos(),
                CHECK_TRUSTED_FOR.toNanos(), nanoTime, readGaps);
        PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
                .setMaxConnTotal(maxTotal)
                .setMaxConnPerRoute(maxPerRoute)
                .setConnectionFactory(connections)
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(Timeout.of(connectTimeout))
                        .setSocketTimeout(Timeout.of(readTimeout))
                        // asked on every lease: the connection applies the reuse rules above itself
                        .setValidateAfterInactivity(TimeValue.ZERO_MILLISECONDS)
                        .build())
                .build();
        this.client = HttpClients.createMinimal(pool);
        this.evictor = new IdleConnectionEvictor(pool, TimeValue.of(EVICT_IDLE_AFTER));
        evictor.start();
        this.sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "detour-upstream-idle-check");
            thread.setDaemon(true);
            return thread;
        });
        sweeper.scheduleWithFixedDelay(readGaps::sweep, READ_GAP_SWEEP_EVERY_MS, READ_GAP_SWEEP_EVERY_MS,
                TimeUnit.MILLISECONDS);
        if (sweepInBackground) {
            sweeper.scheduleWithFixedDelay(connections::sweep, SWEEP_EVERY_MS, SWEEP_EVERY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** One background check pass, now (tests; the sweeper thread runs one every 250 ms). */
    void checkIdleConnections() {
        connections.sweep();
    }

    /** How many leases so far waited for HttpClient's 1 ms reuse check (tests). */
    long leaseTimeChecks() {
        return connections.leaseTimeChecks();
    }

    /** Applies new P-4 timeouts to the next request, without a restart (settings page). */
    @SuppressWarnings("deprecation") // the per-request connect timeout overrides the pool's connection config
    public void setTimeouts(Duration connectTimeout, Duration readTimeout) {
        if (connectTimeout.isZero() || connectTimeout.isNegative() || readTimeout.isZero() || readTimeout.isNegative()) {
            // HttpClient reads 0 as "wait forever": P-4 exists so that a stall always ends
            throw new IllegalArgumentException("upstream timeouts must be positive");
        }
        this.requestConfig = RequestConfig.custom()
                .setConnectTimeout(Timeout.of(connectTimeout))
                .setResponseTimeout(Timeout.of(readTimeout))
                .setConnectionRequestTimeout(Timeout.of(connectTimeout))
                .setRedirectsEnabled(false)
                .setContentCompressionEnabled(false)
                .build();
        this.errors = new TransportErrorMapper(connectTimeout, readTimeout);
    }

    public static HttpClient5UpstreamClient withDefaults() {
        return new HttpClient5UpstreamClient(DEFAULT_CONNECT_TIMEOUT, DEFAULT_READ_TIMEOUT);
    }

    /**
     * One exchange, sent once more on a fresh connection when the pooled connection it reused without a
     * check turns out closed before any byte of an answer, within {@link #CLOSED_UNDER_REQUEST}: the upstream
     * ended its keep-alive as the request went out, so nothing was answered and no account failed. A
     * connection checked at lease time, a fresh one, or one that failed later (the upstream worked on the
     * request) that closes without answering is the upstream's failure and is reported as such. A request
     * that must not be replayed (P-10) never goes out twice: its lease trusts no background check (the
     * pre-existing reuse rules only), and a connection closed under it fails the attempt.
     */
    @Override
    public UpstreamResponse send(UpstreamRequest request) throws UpstreamTransportException {
        TransportErrorMapper errors = this.errors;
        for (int sends = 1; ; sends++) {
            connections.beforeLease(request.replayable());
            long started = connections.nanoTime();
            try {
                return open(request, errors);
            } catch (IOException | HttpException | RuntimeException e) {
                boolean closedUnderIt = connections.leasedUnchecked() && TransportErrorMapper.noAnswer(e)
                        && connections.nanoTime() - started < CLOSED_UNDER_REQUEST.toNanos();
                if (sends > 1 || !request.replayable() || !closedUnderIt) {
                    throw errors.toException(e, RequestSecrets.of(request));
                }
            }
        }
    }

    private UpstreamResponse open(UpstreamRequest request, TransportErrorMapper errors)
            throws IOException, HttpException, UpstreamTransportException {
        HttpUriRequestBase upstreamRequest = toHttpRequest(request);
        upstreamRequest.setConfig(requestConfig);
        try {
            ClassicHttpResponse upstreamResponse = client.executeOpen(RoutingSupport.determineHost(upstreamRequest),
                    upstreamRequest, null);
            return new HttpClient5UpstreamResponse(upstreamRequest, upstreamResponse, request, errors);
        } catch (IOException | HttpException | RuntimeException e) {
            upstreamRequest.cancel();
            throw e;
        }
    }

    private HttpUriRequestBase toHttpRequest(UpstreamRequest request) throws UpstreamTransportException {
        URI uri;
        try {
            uri = uris.of(request.url());
        } catch (IllegalArgumentException e) {
            // The URL may carry a key (?key=…): name the problem, never the URL.
            throw new UpstreamTransportException(new TransportError(TransportErrorType.OTHER, "invalid upstream url"));
        }
        HttpUriRequestBase upstreamRequest = new HttpUriRequestBase(request.method(), uri);
        for (Header header : request.headers()) {
            if (isForwardable(header.name())) {
                upstreamRequest.addHeader(header.name(), header.value());
            }
        }
        if (request.body() != null) {
            // Content-Type travels in the headers above; the entity only frames the bytes.
            upstreamRequest.setEntity(new ByteArrayEntity(request.body(), null));
        }
        return upstreamRequest;
    }

    /** The client sets Host and Content-Length itself from the URL and body; duplicates are a protocol error. */
    private static boolean isForwardable(String name) {
        return !HeaderPolicy.isHopByHop(name) && !name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-length");
    }

    @Override
    public boolean closed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true; // before the cut: the exchanges it ends see it set
        sweeper.shutdownNow();
        evictor.shutdown();
        client.close(CloseMode.GRACEFUL);
    }
}
