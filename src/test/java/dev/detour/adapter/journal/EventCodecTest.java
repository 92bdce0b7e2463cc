package dev.detour.adapter.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Journals are replayed at the first start after an upgrade: records of the version before still read. */
class EventCodecTest {
    private static final Instant T0 = Instant.parse("2026-12-01T12:00:00.5Z");

    @Test
    void aRecordWrittenBeforeTheUsageSplitReadsWithItsFourCountsAndNoUpstreamProtocol() throws IOException {
        JournalEntry entry = EventCodec.decode(versionOneRecord());

        RequestEvent e = entry.event();
        assertEquals(JournalEntry.Kind.FINISHED, entry.kind());
        assertEquals("r1", e.requestId());
        assertEquals(new TokenUsage(10, 20, 30, 40, 0, 0), e.usage()); // its cache writes were all 5 min ones
        assertEquals(1234, e.costMicros());
        assertEquals(T0, e.createdAt());
        assertNull(e.upstreamProtocol());
    }

    @Test
    void theCurrentVersionKeepsEveryUsageClassAndTheUpstreamProtocol() throws IOException {
        RequestEvent event = new RequestEvent("r2", 7L, "messages", "m", "m@a", true, 3L, 1L,
                RequestEvent.Outcome.SUCCESS, 200, null, "first_choice", List.of(), List.of(),
                new TokenUsage(1, 2, 3, 4, 5, 6), 99, 10, 20, "10.0.0.1", T0, false, "chat_completions");

        JournalEntry read = EventCodec.decode(EventCodec.encode(JournalEntry.Kind.FINISHED, event));

        assertEquals(event, read.event());
    }

    @Test
    void eachAttemptKeepsTheProtocolsTheBridgeJoined() throws IOException {
        // B-1: after every field older records hold, so those still read (with none)
        List<RequestEvent.AttemptRecord> attempts = List.of(
                new RequestEvent.AttemptRecord(3L, 529, "upstream_status", "account", 12, "switch"),
                new RequestEvent.AttemptRecord(4L, 200, null, null, 30, "final", "messages", "chat_completions"));
        RequestEvent event = new RequestEvent("r3", 7L, "messages", "m", "m@a", false, 4L, 1L,
                RequestEvent.Outcome.SUCCESS, 200, null, "switched_after_failure", attempts, List.of(),
                new TokenUsage(1, 2, 0, 0, 0, 0), 99, null, 40, "10.0.0.1", T0, false, "chat_completions");

        JournalEntry read = EventCodec.decode(EventCodec.encode(JournalEntry.Kind.FINISHED, event));

        assertEquals(event, read.event());
        assertNull(read.event().attempts().get(0).bridgedTo());
        assertEquals("chat_completions", read.event().attempts().get(1).bridgedTo());
    }

    /** The layout version 1 of the codec wrote (a FINISHED record, no key, attempts or rejections). */
    private static byte[] versionOneRecord() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(1);
            out.writeByte(JournalEntry.Kind.FINISHED.ordinal());
            out.writeUTF("r1");
            out.writeBoolean(false); // key id
            out.writeUTF("messages");
            out.writeBoolean(false); // requested model
            out.writeBoolean(false); // model key
            out.writeBoolean(false); // stream
            out.writeBoolean(false); // account id
            out.writeBoolean(false); // group id
            out.writeByte(RequestEvent.Outcome.SUCCESS.ordinal());
            out.writeInt(200);
            out.writeBoolean(false); // error code
            out.writeBoolean(false); // reason code
            out.writeShort(0);
            out.writeShort(0);
            for (long count : new long[] {10, 20, 30, 40}) {
                out.writeLong(count);
            }
            out.writeLong(1234);
            out.writeInt(Integer.MIN_VALUE); // no ttft
            out.writeInt(5);
            out.writeBoolean(false); // client ip
            out.writeLong(T0.getEpochSecond());
            out.writeInt(T0.getNano());
            out.writeBoolean(false); // usage missing
        }
        return bytes.toByteArray();
    }
}
