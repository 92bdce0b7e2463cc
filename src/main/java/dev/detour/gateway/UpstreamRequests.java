package dev.detour.gateway;

import dev.detour.core.account.Account;

/** The request one attempt sends: base URL + client path, allowlisted headers + auth, model rewritten. */
final class UpstreamRequests {
    private UpstreamRequests() {
    }

    static UpstreamRequest build(ClientCall call, Account account, String upstreamModel, String apiKey) {
        byte[] body = upstreamModel == null ? call.body() : BodyRewriter.withModel(call.body(), call.peek(), upstreamModel);
        return new UpstreamRequest(call.method(), account.baseUrl() + call.pathAndQuery(),
                HeaderPolicy.upstream(call, account, apiKey), body, !call.peek().neverSentTwice());
    }
}
