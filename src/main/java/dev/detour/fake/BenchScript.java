package dev.detour.fake;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the fake answers in bench/run.sh (SPEC N-1…N-3, N-9): a request with {@code "stream":true} gets a
 * role frame at once, 64 content deltas 20 ms apart ({@code w0 } … {@code w63 }, the last with
 * finish_reason stop) and [DONE] with the last delta; any other request gets {@link #COMPLETION_JSON},
 * which nginx serves too, so every leg sees the same bytes. Asked at {@code /v1/messages} it speaks
 * Anthropic Messages at the same pace (message_start and the text block at once, the same 64 words as
 * text deltas, message_stop with the last; {@link #MESSAGES_JSON} when not streamed): the native leg of
 * the bridged-vs-native comparison. The bench client checks the words and the frame count
 * (bench/src/dev/detour/bench/StreamCheck.java).
 */
final class BenchScript {
    static final int DELTAS = 64;
    static final Duration INTERVAL = Duration.ofMillis(20);

    static final String COMPLETION_JSON = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion\","
            + "\"created\":1700000000,\"model\":\"bench-json\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello from the bench upstream.\"},"
            + "\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":7,\"total_tokens\":16}}";

    static final String MESSAGES_JSON = "{\"id\":\"msg_bench\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"bench-msg\",\"content\":[{\"type\":\"text\",\"text\":\"Hello from the bench upstream.\"}],"
            + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,\"output_tokens\":7}}";

    private static final String CHUNK_HEAD = "{\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1700000000,\"model\":\"bench-stream\",\"choices\":[{\"index\":0,\"delta\":";
    private static final Reply STREAM = Reply.sse(frames()).every(INTERVAL);
    private static final Reply JSON = Reply.json(200, COMPLETION_JSON);
    private static final Reply MESSAGES_STREAM = Reply.sseEvents(messagesFrames()).every(INTERVAL);
    private static final Reply MESSAGES = Reply.json(200, MESSAGES_JSON);

    private BenchScript() {
    }

    static Reply answer(RecordedRequest request) {
        if (request.path().startsWith("/v1/messages")) {
            return request.wantsStream() ? MESSAGES_STREAM : MESSAGES;
        }
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

    /** Frame by frame as {@link #frames()}: several events in one frame where Chat has one chunk. */
    private static List<String> messagesFrames() {
        List<String> frames = new ArrayList<>(DELTAS + 1);
        frames.add("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_bench\","
                + "\"type\":\"message\",\"role\":\"assistant\",\"model\":\"bench-stream\",\"content\":[],"
                + "\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":9,\"output_tokens\":1}}}\n\n"
                + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,"
                + "\"content_block\":{\"type\":\"text\",\"text\":\"\"}}");
        for (int i = 0; i < DELTAS; i++) {
            String delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                    + "\"delta\":{\"type\":\"text_delta\",\"text\":\"w" + i + " \"}}";
            frames.add(i < DELTAS - 1 ? delta : delta
                    + "\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"
                    + "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\","
                    + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":" + DELTAS + "}}\n\n"
                    + "event: message_stop\ndata: {\"type\":\"message_stop\"}");
        }
        return frames;
    }
}
