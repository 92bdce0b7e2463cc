package dev.detour.bench;

import java.util.List;

/**
 * A leg under test: a name (direct, nginx, detour, …), a loopback port, an optional bearer, an optional
 * model (the stream legs' default is bench-stream) and optional extra headers (a peer gateway told by
 * headers where to send the request, e.g. Portkey's x-portkey-provider).
 */
record Target(String name, int port, String bearer, String model, List<String> headers) {

    /**
     * Parses {@code name=port[=bearer[=model[=headers]]]}, headers as {@code Name:value|Name:value}; an empty
     * field is left unset (e.g. {@code portkey=8787===x-portkey-provider:openai}).
     */
    static Target parse(String spec) {
        String[] parts = spec.split("=", 5);
        if (parts.length < 2) {
            throw new IllegalArgumentException("target must be name=port[=bearer[=model[=headers]]]: " + spec);
        }
        List<String> headers = parts.length == 5 && !parts[4].isEmpty() ? List.of(parts[4].split("\\|")) : List.of();
        return new Target(parts[0], Integer.parseInt(parts[1]), parts.length > 2 ? parts[2] : "",
                parts.length > 3 ? parts[3] : "", headers);
    }

    /** The leg's model, or {@code otherwise} when the spec named none. */
    String modelOr(String otherwise) {
        return model.isEmpty() ? otherwise : model;
    }

    byte[] postRequest(String body) {
        return postRequest("/v1/chat/completions", body);
    }

    byte[] postRequest(String path, String body) {
        StringBuilder head = new StringBuilder(256)
                .append("POST ").append(path).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\n")
                .append("Content-Type: application/json\r\n")
                .append("Accept: */*\r\n")
                .append("User-Agent: detour-bench\r\n");
        if (!bearer.isEmpty()) {
            head.append("Authorization: Bearer ").append(bearer).append("\r\n");
        }
        for (String header : headers) {
            int colon = header.indexOf(':');
            head.append(header, 0, colon).append(": ").append(header.substring(colon + 1)).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
        return Payloads.ascii(head.toString());
    }
}
