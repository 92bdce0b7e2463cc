package dev.detour.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.bridge.Bridge;
import dev.detour.bridge.StreamBridge;
import dev.detour.bridge.ToolNames;
import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.Header;
import dev.detour.gateway.wire.HeaderPolicy;
import dev.detour.json.JsonFactories;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** B-3: the answer side of a bridged attempt — the buffered body, its headers, the stream translator. */
final class Bridging {
    /** The code of a 2xx answer the bridge could not read (not JSON, or not of the upstream's shape). */
    static final String UNREADABLE_ANSWER = "bridge.unreadable_answer";
    private static final ObjectMapper JSON = JsonFactories.mapper();

    private Bridging() {
    }

    /** The upstream's buffered 2xx answer in the client's protocol, or null when it cannot be read. */
    static byte[] answer(EndpointFamily client, EndpointFamily upstream, ToolNames tools, byte[] body,
            Instant now) {
        try {
            JsonNode tree = JSON.readTree(body);
            if (tree == null || !tree.isObject()) {
                return null;
            }
            return JSON.writeValueAsBytes(Bridge.answer(client, upstream, tree, now.getEpochSecond(), tools));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The client's headers for a translated buffered body: the allow-list, less what described the old body. */
    static List<Header> headers(List<Header> upstreamHeaders) {
        List<Header> out = new ArrayList<>();
        for (Header h : HeaderPolicy.toClient(upstreamHeaders)) {
            if (!h.name().equalsIgnoreCase("content-type") && !h.name().equalsIgnoreCase("content-encoding")) {
                out.add(h);
            }
        }
        out.add(new Header("content-type", "application/json"));
        return out;
    }

    /**
     * The translator for one bridged stream; a Chat client's {@code stream_options.include_usage} is honoured (read
     * once, with the rest of the peek, by the proxy).
     */
    static StreamBridge stream(ClientCall call, EndpointFamily upstream, ToolNames tools, Instant now) {
        boolean includeUsage = call.family() == EndpointFamily.CHAT_COMPLETIONS && call.peek().includeUsage();
        return StreamBridge.between(upstream, call.family(), new StreamBridge.Options(includeUsage,
                now.getEpochSecond(), tools));
    }
}
