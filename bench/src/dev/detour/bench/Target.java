package dev.detour.bench;

/** A leg under test: a name (direct, nginx, detour), a loopback port and an optional bearer. */
record Target(String name, int port, String bearer) {

    /** Parses {@code name=port} or {@code name=port=bearer}. */
    static Target parse(String spec) {
        String[] parts = spec.split("=", 3);
        if (parts.length < 2) {
            throw new IllegalArgumentException("target must be name=port[=bearer]: " + spec);
        }
        return new Target(parts[0], Integer.parseInt(parts[1]), parts.length == 3 ? parts[2] : "");
    }

    byte[] postRequest(String body) {
        StringBuilder head = new StringBuilder(256)
                .append("POST /v1/chat/completions HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\n")
                .append("Content-Type: application/json\r\n")
                .append("Accept: */*\r\n")
                .append("User-Agent: detour-bench\r\n");
        if (!bearer.isEmpty()) {
            head.append("Authorization: Bearer ").append(bearer).append("\r\n");
        }
        head.append("Content-Length: ").append(body.length()).append("\r\n\r\n").append(body);
        return Payloads.ascii(head.toString());
    }
}
