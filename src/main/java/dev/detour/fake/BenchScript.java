package dev.detour.fake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the fake answers in bench/run.sh (SPEC N-1…N-3): a request with {@code "stream":true} gets a
 * role frame at once, 64 content deltas 20 ms apart ({@code w0 } … {@code w63 }, the last with
 * finish_reason stop) and [DONE] with the last delta; any other request gets {@link #COMPLETION_JSON},
 * which nginx serves too, so every leg sees the same bytes. The bench client checks the words and the
 * frame count (bench/src/dev/detour/bench/StreamCheck.java).
 */
final class BenchScript {
    static final int DELTAS = 64;
    static final Duration INTERVAL = Duration.ofMillis(20);

    static final String COMPLETION_JSON = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\","
            + "\"created\":1700000000,\"model\":\"bench-json\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello from the bench upstream.\"},"
            + "\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":7,\"total_tokens\":16}}";

    private static final String CHUNK_HEAD = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1700000000,\"model\":\"bench-stream\",\"choices\":[{\"index\":0,\"delta\":";
    private static final Reply STREAM = Reply.sse(frames()).every(INTERVAL);
    private static final Reply JSON = Reply.json(200, COMPLETION_JSON);

    private BenchScript() {
    }

    static Reply answer(RecordedRequest request) {
        return request.wantsStream() ? STREAM : JSON;
    }

    private static List<String> frames() {
        List<String> frames = new ArrayList<>(DELTAS + 1);
        frames.add(CHUNK_HEAD + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}");
        for (int i = 0; i < DELTAS; i++) {
            String finish = i == DELTAS - 1 ? "\"stop\"" : "null";
            frames.add(CHUNK_HEAD + "{\"content\":\"w" + i + " \"},\"finish_reason\":" + finish + "}]}");
        }
        return frames;
    }
}
