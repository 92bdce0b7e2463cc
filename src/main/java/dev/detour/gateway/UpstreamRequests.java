package dev.detour.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.bridge.Bridge;
import dev.detour.bridge.BridgeRefusal;
import dev.detour.bridge.NativeHistory;
import dev.detour.bridge.ToolNames;
import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.gateway.wire.BodyRewriter;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.json.JsonFactories;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The request one attempt sends: base URL + client path, allowlisted headers + auth, model rewritten. */
final class UpstreamRequests {
    private static final ObjectMapper JSON = JsonFactories.mapper();
    /** What every Detour-made reasoning seal starts with (bridge/BridgedReasoning). */
    private static final Needle SEAL = new Needle("detour-bridged:".getBytes(StandardCharsets.US_ASCII));

    private UpstreamRequests() {
    }

    static UpstreamRequest build(ClientCall call, Account account, String upstreamModel, String apiKey) {
        byte[] body = upstreamModel == null ? call.body() : BodyRewriter.withModel(call.body(), call.peek(), upstreamModel);
        return new UpstreamRequest(call.method(), account.baseUrl() + call.pathAndQuery(),
                HeaderPolicy.upstream(call, account, apiKey), body, !call.peek().neverSentTwice());
    }

    /**
     * The request for an account asked in {@code protocol}. The client's own protocol: passed through, less
     * reasoning Detour made on an earlier bridged turn (B-3: no native upstream could verify its seal).
     * Another protocol: the body translated by the bridge, sent to that protocol's path (the client's query
     * string belongs to its own API) with that protocol's auth.
     *
     * @throws BridgeRefusal the request uses a feature {@code protocol} cannot carry
     */
    static Prepared prepare(ClientCall call, Account account, EndpointFamily protocol, String upstreamModel,
            String apiKey) throws BridgeRefusal {
        if (protocol == call.family()) {
            UpstreamRequest request = build(call, account, upstreamModel, apiKey);
            boolean sealed = NativeHistory.mayCarryBridgedReasoning(protocol) && SEAL.in(request.body());
            return new Prepared(sealed ? withoutBridgedReasoning(request, protocol) : request,
                    ToolNames.NONE);
        }
        String model = upstreamModel != null ? upstreamModel : call.peek().model();
        Bridge.Translation translated;
        try {
            translated = Bridge.translate(call.family(), protocol, clientBody(call), model,
                    account.bridgeReasoning());
        } catch (RuntimeException e) { // a field of an unexpected shape: refused, never half translated
            throw BridgeRefusal.unreadable();
        }
        return new Prepared(new UpstreamRequest(call.method(), account.baseUrl() + protocol.path(),
                HeaderPolicy.upstream(call, account, apiKey, protocol), bytes(translated.body()),
                !call.peek().neverSentTwice()), translated.tools());
    }

    /** One account's request, and the names the client's tools went up under (B-6: the answer names them back). */
    record Prepared(UpstreamRequest request, ToolNames tools) {
    }

    private static UpstreamRequest withoutBridgedReasoning(UpstreamRequest request, EndpointFamily protocol) {
        JsonNode body = parse(request.body());
        if (!(body instanceof ObjectNode object) || !NativeHistory.stripBridgedReasoning(protocol, object)) {
            return request;
        }
        return new UpstreamRequest(request.method(), request.url(), request.headers(), bytes(object),
                request.replayable());
    }

    private static JsonNode clientBody(ClientCall call) throws BridgeRefusal {
        JsonNode body = parse(call.body());
        if (body == null || !body.isObject()) {
            throw BridgeRefusal.unreadable();
        }
        return body;
    }

    private static JsonNode parse(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException("a JSON tree always serialises", e);
        }
    }

    /**
     * A fixed byte string looked for in whole request bodies, every attempt: Horspool's skip table moves the window
     * by up to the needle's length per step. A byte-by-byte scan of every body for the seal was 37 % of Detour's
     * CPU with 32 KiB agent bodies (JFR); agents send long contexts.
     */
    static final class Needle {
        private final byte[] bytes;
        private final int[] shift = new int[256];

        Needle(byte[] bytes) {
            if (bytes.length == 0) {
                throw new IllegalArgumentException("an empty needle");
            }
            this.bytes = bytes.clone();
            Arrays.fill(shift, bytes.length);
            for (int i = 0; i < bytes.length - 1; i++) {
                shift[bytes[i] & 0xff] = bytes.length - 1 - i; // how far the window may move when it ends on this byte
            }
        }

        boolean in(byte[] haystack) {
            int last = bytes.length - 1;
            for (int end = last; end < haystack.length; end += shift[haystack[end] & 0xff]) {
                // backwards from the window's end, inline: the seal ends in ':', which a JSON body is full of,
                // and a library compare's set-up for each of those cost more than the search (JFR)
                int i = last;
                while (i >= 0 && haystack[end - last + i] == bytes[i]) {
                    i--;
                }
                if (i < 0) {
                    return true;
                }
            }
            return false;
        }
    }
}
