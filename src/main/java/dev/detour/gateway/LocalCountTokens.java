package dev.detour.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.bridge.TokenEstimate;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.selection.Candidate;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import dev.detour.json.JsonFactories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * B-5: {@code POST /v1/messages/count_tokens} answered by Detour with {@link TokenEstimate} when the account a
 * Messages request for the same model would go to cannot count Claude's tokens (it speaks another protocol, so
 * it is reached through a bridge): the estimate never reaches an upstream, so it is never a health signal of
 * any account. It is labelled by the {@value #ESTIMATE_HEADER} header. An account that speaks Messages natively
 * keeps getting count_tokens forwarded as before.
 */
final class LocalCountTokens {
    static final String ESTIMATE_HEADER = "x-detour-estimate";
    private static final ObjectMapper JSON = JsonFactories.mapper();

    private LocalCountTokens() {
    }

    /**
     * B-5 / B-1: the one place that says whether an account speaks Anthropic Messages natively (and so counts
     * tokens itself): its declared protocols.
     */
    static boolean speaksMessagesNatively(Account account) {
        return account.protocols().contains(EndpointFamily.MESSAGES);
    }

    /** True when the plan of a Messages request for this model starts at an account Detour must estimate for. */
    static boolean estimates(Router.Decision asMessages) {
        if (asMessages.refusal() != null) {
            return false; // nothing would serve it: the count_tokens request takes its own way, and its refusal
        }
        List<Candidate> candidates = asMessages.plan().candidates();
        return !candidates.isEmpty() && !speaksMessagesNatively(candidates.get(0).account());
    }

    /** The same request as Messages would route it (the model and key are the same; only the family differs). */
    static ClientCall asMessages(ClientCall call) {
        return new ClientCall(call.requestId(), EndpointFamily.MESSAGES, call.method(), call.pathAndQuery(),
                call.headers(), call.body(), call.peek(), call.key(), call.clientIp(), call.receivedAt(),
                call.receivedNanos());
    }

    /** Anthropic's answer shape: {@code {"input_tokens": n}}. */
    static byte[] answer(byte[] body) throws IOException {
        JsonNode request = JSON.readTree(body);
        return ("{\"input_tokens\":" + TokenEstimate.inputTokens(request) + "}").getBytes(StandardCharsets.UTF_8);
    }

    static List<Header> headers() {
        return List.of(new Header("content-type", "application/json"), new Header(ESTIMATE_HEADER, "local"));
    }
}
