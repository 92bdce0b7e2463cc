package dev.detour.fake;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.jetty.io.ConnectionStatistics;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A real HTTP upstream on 127.0.0.1 (Jetty 12, plain handler) scripted per request: queued
 * {@link Reply}s first-in-first-out, else the {@link #handler(Function)}, else a 200 chat
 * completion. Every request is recorded before its reply starts. Holds end on their latch or on
 * {@link #close()}, never on a timer. The test kit scripts it per test; the demo ({@code DemoUpstream})
 * and the bench ({@link Main}) give it a handler and leave it running.
 */
public final class FakeUpstream implements AutoCloseable {
    /** Upper bound for {@link #awaitRequests}: a hang guard, never a timing assertion. */
    private static final long AWAIT_CAP_SECONDS = 30;

    private final Server server;
    private final Queue<Reply> queue = new ConcurrentLinkedQueue<>();
    private final List<RecordedRequest> requests = new CopyOnWriteArrayList<>();
    private final Set<CountDownLatch> holding = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closing = new CountDownLatch(1);
    private final ConnectionStatistics connections = new ConnectionStatistics();
    private final ConcurrencyGauge concurrency = new ConcurrencyGauge();
    private final FrameTicker ticker = new FrameTicker();
    private volatile Function<RecordedRequest, Reply> handler = FakeUpstream::defaultReply;
    private volatile boolean keepRequests = true;
    /** Serves https ({@link #startTls}). */
    private final boolean tls;

    private FakeUpstream(int port, SslContextFactory.Server tls) {
        this.tls = tls != null;
        QueuedThreadPool threads = new QueuedThreadPool(400, 8);
        threads.setName("fake-upstream");
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        ServerConnector connector = tls == null ? new ServerConnector(server, new HttpConnectionFactory(http))
                : new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"), new HttpConnectionFactory(http));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setAcceptQueueSize(1024);
        connector.addBean(connections);
        server.addConnector(connector);
        server.setHandler(new ScriptHandler());
        server.setStopTimeout(0);
    }

    public static FakeUpstream start() {
        return start(0);
    }

    public static FakeUpstream start(int port) {
        return started(new FakeUpstream(port, null), port);
    }

    /**
     * The same over TLS (HTTP/1.1), presenting the key store's certificate: for what https upstreams cost (the bench's
     * https legs; its clients trust the certificate, for {@code localhost}).
     */
    public static FakeUpstream startTls(int port, Path keyStore, String password) {
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(keyStore.toString());
        tls.setKeyStorePassword(password);
        return started(new FakeUpstream(port, tls), port);
    }

    private static FakeUpstream started(FakeUpstream fake, int port) {
        try {
            fake.server.start();
        } catch (Exception e) {
            throw new IllegalStateException("FakeUpstream failed to start on port " + port, e);
        }
        return fake;
    }

    public String url() {
        return tls ? "https://localhost:" + port() : "http://127.0.0.1:" + port();
    }

    public int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    public FakeUpstream enqueue(Reply... replies) {
        Collections.addAll(queue, replies);
        return this;
    }

    /** Answers requests when the queue is empty. */
    public FakeUpstream handler(Function<RecordedRequest, Reply> handler) {
        this.handler = handler;
        return this;
    }

    /**
     * Whether requests are kept for {@link #requests()} (tests) or only answered (a long-running demo or
     * bench, which would otherwise keep every request it ever saw).
     */
    public FakeUpstream keepRequests(boolean keep) {
        this.keepRequests = keep;
        return this;
    }

    public List<RecordedRequest> requests() {
        return List.copyOf(requests);
    }

    public int requestCount() {
        return requests.size();
    }

    /** TCP connections accepted so far: tells a reused pooled connection from a fresh one. */
    public long connectionsOpened() {
        long total = connections.getConnectionsTotal();
        return tls ? total / 2 : total; // over TLS Jetty opens two per TCP connection: the TLS one, HTTP's over it
    }

    /** Requests it is answering right now and the most at once (S-5 tests: the upstream counts). */
    public ConcurrencyGauge concurrency() {
        return concurrency;
    }

    public RecordedRequest lastRequest() {
        List<RecordedRequest> all = requests();
        if (all.isEmpty()) {
            throw new AssertionError("FakeUpstream received no request");
        }
        return all.get(all.size() - 1);
    }

    /** Waits until {@code count} requests have arrived (they are counted before any hold). */
    public void awaitRequests(int count) throws InterruptedException {
        synchronized (requests) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(AWAIT_CAP_SECONDS);
            while (requests.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("FakeUpstream saw " + requests.size() + " of " + count + " requests");
                }
                TimeUnit.NANOSECONDS.timedWait(requests, left);
            }
        }
    }

    /** Releases every hold, then stops the server. */
    @Override
    public void close() {
        closing.countDown();
        holding.forEach(CountDownLatch::countDown);
        ticker.close();
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("FakeUpstream failed to stop", e);
        }
    }

    static Reply defaultReply(RecordedRequest request) {
        String model = request.model() == null ? Bodies.DEFAULT_MODEL : request.model();
        return Reply.json(200, Bodies.chatCompletion(model, Bodies.DEFAULT_TEXT));
    }

    /** True when released by the reply's latch, false when the fake is closing. */
    private boolean hold(CountDownLatch release) {
        CountDownLatch latch = release == null ? closing : release;
        holding.add(latch);
        try {
            latch.await();
            return closing.getCount() > 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            holding.remove(latch);
        }
    }

    private RecordedRequest record(Request request) throws java.io.IOException {
        RecordedRequest recorded = RecordedRequest.of(request);
        if (!keepRequests) {
            return recorded;
        }
        synchronized (requests) {
            requests.add(recorded);
            requests.notifyAll();
        }
        return recorded;
    }

    private final class ScriptHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            Runnable leave = concurrency.enter(); // counted before recorded: awaitRequests implies counted
            try {
                RecordedRequest recorded = record(request);
                Reply reply = queue.poll();
                if (reply == null) {
                    reply = handler.apply(recorded);
                }
                new ReplyWriter(request, response, callback, FakeUpstream.this::hold, leave, ticker).play(reply);
                return true; // the writer counts the request out before its last byte, or at a cut
            } catch (Exception | Error e) {
                leave.run();
                throw e;
            }
        }
    }

    /** Blocks until the server stops (the standalone {@link Main}). */
    public void join() throws InterruptedException {
        server.join();
    }

    /** How long an idle connection stays open (Jetty's 30 s by default); a bench keeps its pools warm longer. */
    public FakeUpstream idleTimeout(Duration timeout) {
        ((ServerConnector) server.getConnectors()[0]).setIdleTimeout(timeout.toMillis());
        return this;
    }

    /** The standalone script: an SSE stream for {@code "stream":true}, else the default completion. */
    public static Function<RecordedRequest, Reply> standaloneHandler(int deltas, Duration gap) {
        String[] texts = new String[deltas];
        for (int i = 0; i < deltas; i++) {
            texts[i] = "tok" + i + " ";
        }
        Reply stream = Reply.sse(Bodies.chatStream(texts)).every(gap);
        return request -> request.wantsStream() ? stream : defaultReply(request);
    }
}
