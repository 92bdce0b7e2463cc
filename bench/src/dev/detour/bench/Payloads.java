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

    /** Delta i carries the word "w{i} "; the last delta carries finish_reason "stop". */
    static String deltaWord(int i) {
        return "w" + i + " ";
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
