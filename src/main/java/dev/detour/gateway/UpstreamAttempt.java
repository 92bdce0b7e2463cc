package dev.detour.gateway;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.attempt.AttemptRules;
import dev.detour.core.failure.AttemptFacts;
import dev.detour.core.failure.SseFrames;
import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamClient;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.port.UpstreamTransportException;
import dev.detour.gateway.wire.AnswerFacts;
import dev.detour.gateway.wire.AnswerReader;
import dev.detour.gateway.wire.RequestSecrets;
import dev.detour.gateway.wire.UsageLines;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs one upstream attempt and gathers what the verdict needs before the client sees a byte (P-5, P-6):
 * buffered answers are read whole; a streaming 2xx answer is held until its first data frame, so a dead
 * connection, an empty 200 or a failure envelope in the first frame still fail over. The attempt reads no
 * clock: the loop judges the {@link UpstreamAnswer} with its {@code now}.
 */
final class UpstreamAttempt {
    private final UpstreamClient upstream;

    UpstreamAttempt(UpstreamClient upstream) {
        this.upstream = upstream;
    }

    /** @param protocol the protocol the upstream is asked in, so its answer's usage is read in it (B-4) */
    UpstreamAnswer run(UpstreamRequest request, EndpointFamily protocol, boolean clientWantsStream, String modelKey) {
        UpstreamResponse response;
        try {
            response = upstream.send(request);
        } catch (UpstreamTransportException e) {
            return transportFailure(request, e.error(), modelKey, AttemptRules.dispatched(e.error().type()));
        }
        int status = response.status();
        boolean success = status >= 200 && status < 300;
        if (clientWantsStream && success && isEventStream(response)) {
            return firstFrame(request, protocol, response, modelKey);
        }
        byte[] body;
        try (response) {
            body = readBody(response);
        } catch (IOException e) {
            return readFailed(request, response, e, modelKey);
        }
        return judge(request, protocol, status, response.headers(), body, isEventStream(response), modelKey);
    }

    /**
     * With a Content-Length the body is read straight into an array of that size; readAllBytes would
     * allocate 8-16 KiB chunks and copy (the largest allocation per request in the JFR profile).
     */
    private static byte[] readBody(UpstreamResponse response) throws IOException {
        String declared = response.header("content-length");
        long length = -1;
        try {
            length = declared == null ? -1 : Long.parseLong(declared.trim());
        } catch (NumberFormatException e) {
            length = -1;
        }
        if (length < 0 || length > MAX_SIZED_READ) {
            byte[] body = response.body().readNBytes(MAX_UPSTREAM_BODY + 1);
            if (body.length > MAX_UPSTREAM_BODY) {
                throw tooLarge();
            }
            return body;
        }
        InputStream in = response.body();
        byte[] body = new byte[(int) length];
        int read = in.readNBytes(body, 0, body.length);
        int next = read < body.length ? -1 : in.read(); // the end of the body is seen: the connection is reused
        if (read == body.length && next < 0) {
            return body;
        }
        // a Content-Length the body does not match: keep exactly the bytes that came
        ByteArrayOutputStream all = new ByteArrayOutputStream(read + 1024);
        all.write(body, 0, read);
        if (next >= 0) {
            all.write(next);
            byte[] chunk = new byte[8192];
            int n;
            while ((n = in.read(chunk)) >= 0) {
                if (all.size() + n > MAX_UPSTREAM_BODY) {
                    throw tooLarge();
                }
                all.write(chunk, 0, n);
            }
        }
        return all.toByteArray();
    }

    private static final int MAX_SIZED_READ = 1 << 20;
    /**
     * an upstream is trusted with a request, not with Detour's heap: a buffered answer (or the
     * part of a stream before its first data frame) larger than this fails the attempt.
     */
    static final int MAX_UPSTREAM_BODY = 64 * 1024 * 1024;

    private static IOException tooLarge() {
        return new IOException("upstream answer larger than " + MAX_UPSTREAM_BODY + " bytes");
    }

    /**
     * A 2xx JSON answer is read once (usage, cost, response id, envelope fields). When that read finds
     * one complete object without any failure-envelope field, the classifier's verdict is already known
     * to be success (F-4, {@link dev.detour.core.failure.UpstreamErrorFields#feedsEnvelope}): no String copy.
     * whatever is not a success is masked with the request's secrets (the account's key among them):
     * the failure's stored text by the classifier, a relayed client error here. A success is never rewritten.
     */
    private static UpstreamAnswer judge(UpstreamRequest request, EndpointFamily protocol, int status,
            List<Header> headers, byte[] body, boolean sse, String modelKey) {
        boolean success = status >= 200 && status < 300;
        AnswerFacts answer = !success ? AnswerFacts.NONE : sse ? UsageLines.of(protocol, body)
                : AnswerReader.read(protocol, body);
        if (answer.envelopeClear()) {
            return UpstreamAnswer.known(AttemptResult.buffered(status, headers, body, answer));
        }
        String text = new String(body, StandardCharsets.UTF_8);
        // F-4: a buffered SSE body is judged for truncation by the same scanner as the streaming path
        AttemptFacts facts = sse ? AttemptFacts.streamed(status, lowerCase(headers), text)
                : AttemptFacts.response(status, lowerCase(headers), text);
        SecretMask mask = RequestSecrets.maskFor(request);
        return UpstreamAnswer.toJudge(facts.forModel(modelKey).maskingWith(mask), true, verdict -> verdict.isClientError()
                // the upstream's error body reaches the key holder masked (the sink sets the new length)
                ? AttemptResult.clientError(status, headers, mask.apply(body))
                : AttemptResult.buffered(status, headers, body, answer), () -> { });
    }

    /** Reads up to the end of the first non-empty data frame; comments and keep-alives before it are kept. */
    private static UpstreamAnswer firstFrame(UpstreamRequest request, EndpointFamily protocol,
            UpstreamResponse response, String modelKey) {
        ByteArrayOutputStream head = new ByteArrayOutputStream(1024);
        byte[] buffer = new byte[8192];
        try {
            InputStream in = response.body();
            SseFrames frames = new SseFrames(SseFrames.NON_BLANK);
            while (true) {
                int n = in.read(buffer);
                if (n < 0) {
                    response.abort();
                    String what = head.size() == 0 ? "upstream closed the stream before sending any data"
                            : "upstream closed the stream before its first data frame";
                    return transportFailure(request, new TransportError(TransportErrorType.CLOSED_EARLY, what),
                            modelKey, true);
                }
                if (head.size() + n > MAX_UPSTREAM_BODY) {
                    throw tooLarge();
                }
                head.write(buffer, 0, n);
                String firstData = frames.feed(buffer, 0, n);
                if (firstData != null) {
                    return judgeFirstFrame(request, protocol, response, head.toByteArray(), firstData, modelKey);
                }
            }
        } catch (IOException e) {
            return readFailed(request, response, e, modelKey);
        }
    }

    /**
     * F-4: a first frame that is one JSON object without any field the failure envelope reads is a success, known
     * from one streaming read (the buffered answers' reader, which their load keeps warm): no headers map, frame
     * text or document tree on the way to the first byte. Any other first frame goes through the classifier.
     */
    private static UpstreamAnswer judgeFirstFrame(UpstreamRequest request, EndpointFamily protocol,
            UpstreamResponse response, byte[] head, String firstData, String modelKey) {
        SecretMask mask = RequestSecrets.maskFor(request);
        if (AnswerReader.read(protocol, firstData.getBytes(StandardCharsets.UTF_8)).envelopeClear()) {
            return UpstreamAnswer.known(AttemptResult.stream(response.status(), response.headers(), head, response,
                    mask));
        }
        String frameText = "data: " + firstData + "\n\n";
        AttemptFacts facts = AttemptFacts.streamStart(response.status(), lowerCase(response.headers()), frameText)
                .forModel(modelKey).maskingWith(mask);
        return UpstreamAnswer.toJudge(facts, true,
                verdict -> AttemptResult.stream(response.status(), response.headers(), head, response, mask),
                response::abort);
    }

    /** The answer could not be read to its end (or first frame): the connection is dropped, the attempt failed. */
    private static UpstreamAnswer readFailed(UpstreamRequest request, UpstreamResponse response, IOException e,
            String modelKey) {
        response.abort();
        TransportError error = e instanceof UpstreamTransportException transport ? transport.error()
                : new TransportError(TransportErrorType.OTHER, e.getMessage());
        return transportFailure(request, error, modelKey, true);
    }

    private static UpstreamAnswer transportFailure(UpstreamRequest request, TransportError error, String modelKey,
            boolean dispatched) {
        return UpstreamAnswer.transport(error, modelKey, RequestSecrets.maskFor(request), dispatched);
    }

    static boolean isEventStream(UpstreamResponse response) {
        String type = response.header("content-type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
    }

    static Map<String, String> lowerCase(List<Header> headers) {
        Map<String, String> map = new HashMap<>();
        for (Header h : headers) {
            map.putIfAbsent(h.name().toLowerCase(Locale.ROOT), h.value());
        }
        return map;
    }
}
