package dev.detour.bench;

import java.nio.charset.StandardCharsets;

/**
 * What every leg is sent, and what the client checks a stream for. The upstream's side — the chat
 * completion, the role frame, the 64 deltas 20 ms apart — is the shared fake's bench script
 * ({@code dev.detour.fake.BenchScript} in the jar), whose delta words these must match.
 */
final class Payloads {
    static final int DELTAS = 64;

    private Payloads() {
    }

    static String requestBody(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}],"
                + "\"stream\":" + stream + "}";
    }

    /** The same question as an Anthropic Messages request (max_tokens is required there). */
    static String messagesBody(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":256,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Say hello.\"}],\"stream\":" + stream + "}";
    }

    /**
     * A Chat request of at least {@code bytes} bytes shaped as an agent's long context (N-9): a system
     * prompt, a task, then turns of a read_file tool call, the file's text as the tool's result and the
     * assistant's note on it, ending with the user's next question. ASCII only, the same bytes every run.
     */
    static String longContext(String model, int bytes) {
        StringBuilder messages = new StringBuilder(bytes + 4096);
        messages.append(message("system", "You are a coding agent working in the repository of a Java service. "
                + "Read files with read_file before you change them; answer briefly."));
        messages.append(',').append(message("user", "The cooldown rules in the selection code look inconsistent. "
                + "Read the relevant files and tell me what you find."));
        for (int turn = 1; messages.length() < bytes - 600; turn++) {
            String path = "src/main/java/dev/example/selection/Rule" + turn + ".java";
            String id = "call_" + turn;
            messages.append(",{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"").append(id)
                    .append("\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":")
                    .append(quote("{\"path\":\"" + path + "\"}")).append("}}]}");
            messages.append(",{\"role\":\"tool\",\"tool_call_id\":\"").append(id).append("\",\"content\":")
                    .append(quote(sourceFile(turn))).append('}');
            messages.append(',').append(message("assistant", "Rule" + turn + " lowers the weight to a quarter "
                    + "for 30 seconds after a failure and never below 1; it reads the clock once per call."));
        }
        messages.append(',').append(message("user", "Which of these rules would you merge first, and why?"));
        return "{\"model\":\"" + model + "\",\"messages\":[" + messages + "],\"tools\":[{\"type\":\"function\","
                + "\"function\":{\"name\":\"read_file\",\"description\":\"Read a file of the repository\","
                + "\"parameters\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},"
                + "\"required\":[\"path\"]}}}],\"stream\":false}";
    }

    /** About 1.5 KB of Java-like source text: what a read_file tool returns. */
    private static String sourceFile(int n) {
        StringBuilder s = new StringBuilder(1600);
        s.append("package dev.example.selection;\n\nimport java.time.Clock;\n\n/** Cooldown rule ").append(n)
                .append(": how much weight an account keeps after a failure. */\nfinal class Rule").append(n)
                .append(" {\n    private static final long COOLDOWN_MILLIS = ").append(30_000 + n).append(";\n\n");
        for (int m = 0; m < 4; m++) {
            s.append("    /** The weight of the account ").append(m).append(" checks after the cooldown. */\n")
                    .append("    static int weight").append(m).append("(Account account, Clock clock) {\n")
                    .append("        long since = clock.millis() - account.lastFailureMillis();\n")
                    .append("        if (since > COOLDOWN_MILLIS) {\n            return account.weight();\n        }\n")
                    .append("        return Math.max(1, account.weight() / ").append(4 + m).append(");\n    }\n\n");
        }
        return s.append("}\n").toString();
    }

    private static String message(String role, String content) {
        return "{\"role\":\"" + role + "\",\"content\":" + quote(content) + "}";
    }

    /** A JSON string literal of ASCII text. */
    private static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16).append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Delta i carries the word "w{i} "; the last delta carries finish_reason "stop". */
    static String deltaWord(int i) {
        return "w" + i + " ";
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
