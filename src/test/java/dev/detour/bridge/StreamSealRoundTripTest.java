package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.EndpointFamily;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The thinking proof a bridged stream hands a client is the seal the request side reads back to its origin. */
class StreamSealRoundTripTest {
    private static final String SIGNATURE = "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds";

    @Test
    void anAnthropicSignatureStreamedToAResponsesClientReadsBackAsAnthropicsOwn() {
        String messages = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude","content":[],"stop_reason":null,"usage":{"input_tokens":5,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think."}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"%s"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}

                event: message_stop
                data: {"type":"message_stop"}

                """.formatted(SIGNATURE);
        StreamBridge bridge = StreamBridge.between(EndpointFamily.MESSAGES, EndpointFamily.RESPONSES,
                new StreamBridge.Options(false, 1_700_000_000L));
        String out = new String(bridge.feed(messages.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8)
                + new String(bridge.finish(), StandardCharsets.UTF_8);
        Matcher sealed = Pattern.compile("\"(detour-bridged:[^\"]+)\"").matcher(out);
        assertTrue(sealed.find(), out);
        Part.Seal seal = BridgedReasoning.read(EndpointFamily.RESPONSES, sealed.group(1), false);
        assertEquals(new Part.Seal(EndpointFamily.MESSAGES, SIGNATURE, false), seal);
    }
}
