package dev.detour.gateway;

import dev.detour.core.failure.Failure;
import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.port.UpstreamResponse;
import dev.detour.gateway.wire.AnswerFacts;
import java.util.List;

/**
 * What one upstream attempt came to, before anything reached the client.
 * SUCCESS_BUFFERED and CLIENT_ERROR carry the whole body (SUCCESS_BUFFERED also what one read of it
 * found: usage, cost, response id); SUCCESS_STREAM carries the open
 * response and the bytes up to and including the first data frame; FAILURE carries the verdict.
 */
record AttemptResult(Kind kind, int status, List<Header> headers, byte[] body, UpstreamResponse openStream,
        Failure failure, boolean dispatched, AnswerFacts answer, SecretMask mask) {

    enum Kind { SUCCESS_BUFFERED, SUCCESS_STREAM, CLIENT_ERROR, FAILURE }

    static AttemptResult buffered(int status, List<Header> headers, byte[] body, AnswerFacts answer) {
        return new AttemptResult(Kind.SUCCESS_BUFFERED, status, headers, body, null, null, true, answer,
                SecretMask.SHAPES);
    }

    /** @param mask X-5: the request's secrets, for upstream error events relayed after the first frame */
    static AttemptResult stream(int status, List<Header> headers, byte[] head, UpstreamResponse response,
            SecretMask mask) {
        return new AttemptResult(Kind.SUCCESS_STREAM, status, headers, head, response, null, true, AnswerFacts.NONE,
                mask);
    }

    static AttemptResult clientError(int status, List<Header> headers, byte[] body) {
        return new AttemptResult(Kind.CLIENT_ERROR, status, headers, body, null, null, true, AnswerFacts.NONE,
                SecretMask.SHAPES);
    }

    static AttemptResult failed(Failure failure, boolean dispatched) {
        return new AttemptResult(Kind.FAILURE, failure.status() == null ? 0 : failure.status(), List.of(), null,
                null, failure, dispatched, AnswerFacts.NONE, SecretMask.SHAPES);
    }
}
