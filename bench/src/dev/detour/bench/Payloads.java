package dev.detour.bench;

import java.nio.charset.StandardCharsets;

/** The fixed bodies every leg sends and serves, so direct, nginx and Detour see identical bytes. */
final class Payloads {
    static final int DELTAS = 64;
    static final long DELTA_INTERVAL_NANOS = 20_000_000L;

    /** What the loopback upstream answers to a buffered chat completion (also served by nginx). */
    static final String COMPLETION_JSON = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\","
            + "\"created\":1700000000,\"model\":\"bench-json\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello from the bench upstream.\"},"
            + "\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":7,\"total_tokens\":16}}";

    private static final String CHUNK_HEAD = "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1700000000,\"model\":\"bench-stream\",\"choices\":[{\"index\":0,\"delta\":";

    private Payloads() {
    }

    static String requestBody(String model, boolean stream) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello.\"}],"
                + "\"stream\":" + stream + "}";
    }

    static byte[] roleFrame() {
        return ascii(CHUNK_HEAD + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n");
    }

    /** Delta i carries the word "w{i} "; the last delta carries finish_reason "stop". */
    static byte[] deltaFrame(int i) {
        String finish = i == DELTAS - 1 ? "\"stop\"" : "null";
        return ascii(CHUNK_HEAD + "{\"content\":\"" + deltaWord(i) + "\"},\"finish_reason\":" + finish + "}]}\n\n");
    }

    static String deltaWord(int i) {
        return "w" + i + " ";
    }

    static byte[] doneFrame() {
        return ascii("data: [DONE]\n\n");
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
