package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.RequestSecrets;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamTransportException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The exception → transport fact rulebook (P-4), as a table over exception instances. */
class TransportErrorMapperTest {
    private static final String KEY = "sk-live-abcdef0123456789wxyz";
    private final TransportErrorMapper mapper = new TransportErrorMapper(Duration.ofSeconds(20), Duration.ofSeconds(180));

    static Stream<Arguments> rulebook() {
        return Stream.of(
                Arguments.of(connectTimeout(), TransportErrorType.CONNECT_TIMEOUT),
                Arguments.of(new SocketTimeoutException("Read timed out"), TransportErrorType.READ_TIMEOUT),
                Arguments.of(new ConnectException("Connection refused"), TransportErrorType.CONNECT_REFUSED),
                Arguments.of(new NoRouteToHostException("No route to host"), TransportErrorType.CONNECT_REFUSED),
                Arguments.of(new UnknownHostException("nonexistent.invalid"), TransportErrorType.UNKNOWN_HOST),
                Arguments.of(new IOException("wrapped", new UnknownHostException("x.invalid")), TransportErrorType.UNKNOWN_HOST),
                Arguments.of(new SocketException("Connection reset"), TransportErrorType.CONNECTION_RESET),
                Arguments.of(new SocketException("Connection reset by peer"), TransportErrorType.CONNECTION_RESET),
                Arguments.of(new SocketException("Broken pipe"), TransportErrorType.CONNECTION_RESET),
                Arguments.of(new SSLHandshakeException("PKIX path building failed"), TransportErrorType.TLS),
                Arguments.of(new SSLException("read failed", new SocketException("Connection reset")),
                        TransportErrorType.CONNECTION_RESET),
                Arguments.of(new IOException("Connection reset by peer"), TransportErrorType.CONNECTION_RESET),
                Arguments.of(new IOException("Broken pipe"), TransportErrorType.CONNECTION_RESET),
                Arguments.of(new Http1Failure.ClosedEarly("Premature end of Content-Length delimited message body"),
                        TransportErrorType.CLOSED_EARLY),
                Arguments.of(new Http1Failure.BadChunk("bad chunk header"), TransportErrorType.CLOSED_EARLY),
                Arguments.of(new Http1Failure.ClosedEarly("the upstream closed the connection inside a chunk"),
                        TransportErrorType.CLOSED_EARLY),
                Arguments.of(new Http1Failure.NoAnswer("the upstream closed the connection without answering"),
                        TransportErrorType.CLOSED_EARLY),
                Arguments.of(new EOFException(), TransportErrorType.CLOSED_EARLY),
                Arguments.of(new Http1Failure.PoolExhausted("no connection came free"), TransportErrorType.OTHER),
                Arguments.of(new Http1Failure.Malformed("invalid header line from the upstream"), TransportErrorType.OTHER),
                Arguments.of(new IOException("wrapped", new Http1Failure.Malformed("invalid status line")),
                        TransportErrorType.OTHER),
                Arguments.of(new SocketException("Socket closed"), TransportErrorType.OTHER),
                Arguments.of(new IllegalStateException("pool shut down"), TransportErrorType.OTHER));
    }

    @ParameterizedTest(name = "{0} → {1}")
    @MethodSource("rulebook")
    void exceptionMapsToItsTransportType(Throwable failure, TransportErrorType expected) {
        assertEquals(expected, mapper.toError(failure, List.of()).type());
    }

    @Test
    void connectTimeoutNamesTheConnectCeilingNotTheReadOne() {
        TransportError error = mapper.toError(connectTimeout(), List.of());
        assertEquals("connect timeout: no connection within 20 s", error.message());
    }

    @Test
    void readTimeoutNamesTheReadCeilingAndItsValue() {
        TransportError error = mapper.toError(new SocketTimeoutException("Read timed out"), List.of());
        assertEquals("read timeout: no data from upstream for 180 s (read timeout 180 s)", error.message());
    }

    @Test
    void subSecondCeilingsAreShownInMilliseconds() {
        var fast = new TransportErrorMapper(Duration.ofMillis(1500), Duration.ofMillis(300));
        assertEquals("connect timeout: no connection within 1500 ms", fast.toError(connectTimeout(), List.of()).message());
        assertEquals("read timeout: no data from upstream for 300 ms (read timeout 300 ms)",
                fast.toError(new SocketTimeoutException(), List.of()).message());
    }

    @Test
    void credentialsOfTheRequestNeverReachTheMessage() {
        UpstreamRequest request = new UpstreamRequest("POST", "https://relay.example/v1beta/models?alt=sse&key=" + KEY,
                List.of(new Header("Authorization", "Bearer " + KEY), new Header("x-api-key", KEY)), null);
        var failure = new Http1Failure.Malformed("Bad request line for key=" + KEY + " with Bearer " + KEY);

        String message = mapper.toException(failure, RequestSecrets.of(request)).getMessage();

        assertFalse(message.contains(KEY), message);
        assertTrue(message.startsWith("transport error: "), message);
    }

    @Test
    void anAlreadyMappedFailurePassesThroughUnchanged() {
        var mapped = new UpstreamTransportException(new TransportError(TransportErrorType.TLS, "tls error: x"));
        assertSame(mapped, mapper.toException(mapped, List.of()));
    }

    private static Http1Failure.ConnectTimedOut connectTimeout() {
        return new Http1Failure.ConnectTimedOut("connect to http://10.0.0.1:80 timed out",
                new SocketTimeoutException("Read timed out")); // the gap cut the connect, as it cuts a read
    }
}
