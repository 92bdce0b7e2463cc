package dev.detour.adapter.journal;

import dev.detour.core.usage.TokenUsage;
import dev.detour.gateway.port.RequestEvent;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.Outcome;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link RequestEvent} as journal bytes: fixed field order, a version byte first. Binary rather than
 * JSON because request threads encode it (D-2: the append happens before the request goes on), and
 * Jackson's reflective path was measurable per request (docs/performance.md).
 *
 * <p>Journals are replayed at the first start after an upgrade, so a record of an older version is still
 * read: version 1 held four usage counts (input, output, cache read, cache write — all 5 min writes then)
 * and no upstream protocol; version 2 holds B-4's six normalised counts and the upstream protocol.
 */
final class EventCodec {
    private static final int VERSION = 2;
    private static final int VERSION_FOUR_COUNTS = 1;
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final int MAX_CHARS = 16_000;

    private EventCodec() {
    }

    /** The payload alone (what {@link #decode} reads). */
    static byte[] encode(JournalEntry.Kind kind, RequestEvent e) {
        RecordWriter out = new RecordWriter(0);
        write(out, kind, e);
        return out.toByteArray();
    }

    /** Appends the payload to what {@code out} holds (the journal writes its record header in front). */
    static void write(RecordWriter out, JournalEntry.Kind kind, RequestEvent e) {
        out.writeByte(VERSION);
        out.writeByte(kind.ordinal());
        out.writeUTF(clip(e.requestId()));
        nullableLong(out, e.keyId());
        out.writeUTF(clip(e.endpoint()));
        nullableString(out, e.requestedModel());
        nullableString(out, e.modelKey());
        out.writeBoolean(e.stream());
        nullableLong(out, e.accountId());
        nullableLong(out, e.groupId());
        out.writeByte(e.outcome().ordinal());
        out.writeInt(e.status());
        nullableString(out, e.errorCode());
        nullableString(out, e.reasonCode());
        out.writeShort(e.attempts().size());
        for (AttemptRecord a : e.attempts()) {
            out.writeLong(a.accountId());
            out.writeInt(a.status() == null ? Integer.MIN_VALUE : a.status());
            nullableString(out, a.failureKind());
            nullableString(out, a.scope());
            out.writeLong(a.durationMs());
            out.writeUTF(clip(a.action()));
        }
        out.writeShort(e.rejections().size());
        for (RejectionRecord r : e.rejections()) {
            out.writeLong(r.accountId());
            out.writeUTF(clip(r.reason()));
        }
        TokenUsage u = e.usage();
        out.writeLong(u.input());
        out.writeLong(u.output());
        out.writeLong(u.cacheRead());
        out.writeLong(u.cacheWrite5m());
        out.writeLong(u.cacheWrite1h());
        out.writeLong(u.reasoning());
        out.writeLong(e.costMicros());
        out.writeInt(e.ttftMs() == null ? Integer.MIN_VALUE : e.ttftMs());
        out.writeInt(e.latencyMs());
        nullableString(out, e.clientIp());
        out.writeLong(e.createdAt().getEpochSecond());
        out.writeInt(e.createdAt().getNano());
        out.writeBoolean(e.usageMissing());
        nullableString(out, e.upstreamProtocol());
        out.writeInt(e.queuedMs() == null ? Integer.MIN_VALUE : e.queuedMs()); // L-2; absent in older records
        for (AttemptRecord a : e.attempts()) { // B-1, after everything older records hold: absent in them
            nullableString(out, a.bridgedFrom());
            nullableString(out, a.bridgedTo());
        }
    }

    /** Throws {@link IOException} for bytes this codec did not write (the caller treats them as corrupt). */
    static JournalEntry decode(byte[] payload) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        int version = in.readUnsignedByte();
        if (version != VERSION && version != VERSION_FOUR_COUNTS) {
            throw new IOException("unknown journal record version " + version);
        }
        int kind = in.readUnsignedByte();
        if (kind >= JournalEntry.Kind.values().length) {
            throw new IOException("unknown journal record kind " + kind);
        }
        String requestId = in.readUTF();
        Long keyId = nullableLong(in);
        String endpoint = in.readUTF();
        String requestedModel = nullableString(in);
        String modelKey = nullableString(in);
        boolean stream = in.readBoolean();
        Long accountId = nullableLong(in);
        Long groupId = nullableLong(in);
        int outcome = in.readUnsignedByte();
        if (outcome >= OUTCOMES.length) {
            throw new IOException("unknown outcome " + outcome);
        }
        int status = in.readInt();
        String errorCode = nullableString(in);
        String reasonCode = nullableString(in);
        int attemptCount = in.readUnsignedShort();
        List<AttemptRecord> attempts = new ArrayList<>(attemptCount);
        for (int i = 0; i < attemptCount; i++) {
            long account = in.readLong();
            int attemptStatus = in.readInt();
            attempts.add(new AttemptRecord(account, attemptStatus == Integer.MIN_VALUE ? null : attemptStatus,
                    nullableString(in), nullableString(in), in.readLong(), in.readUTF()));
        }
        int rejectionCount = in.readUnsignedShort();
        List<RejectionRecord> rejections = new ArrayList<>(rejectionCount);
        for (int i = 0; i < rejectionCount; i++) {
            rejections.add(new RejectionRecord(in.readLong(), in.readUTF()));
        }
        long[] counts = new long[6]; // version 1 wrote the first four; its cache writes were all 5 min ones
        for (int i = 0; i < (version == VERSION_FOUR_COUNTS ? 4 : 6); i++) {
            counts[i] = in.readLong();
        }
        TokenUsage usage = new TokenUsage(counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]);
        long cost = in.readLong();
        int ttft = in.readInt();
        int latency = in.readInt();
        String clientIp = nullableString(in);
        Instant createdAt = Instant.ofEpochSecond(in.readLong(), in.readInt());
        boolean usageMissing = in.readBoolean();
        String upstreamProtocol = version == VERSION_FOUR_COUNTS ? null : nullableString(in);
        int queued = in.available() == 0 ? Integer.MIN_VALUE : in.readInt(); // L-2: records before it have none
        if (in.available() != 0) { // B-1: each attempt's bridged protocols; records before it have none
            for (int i = 0; i < attempts.size(); i++) {
                attempts.set(i, attempts.get(i).bridged(nullableString(in), nullableString(in)));
            }
        }
        if (in.available() != 0) {
            throw new IOException("trailing bytes in a journal record");
        }
        RequestEvent event = new RequestEvent(requestId, keyId, endpoint, requestedModel, modelKey, stream, accountId,
                groupId, OUTCOMES[outcome], status, errorCode, reasonCode, List.copyOf(attempts),
                List.copyOf(rejections), usage, cost, ttft == Integer.MIN_VALUE ? null : ttft, latency, clientIp,
                createdAt, usageMissing, upstreamProtocol, queued == Integer.MIN_VALUE ? null : queued);
        return new JournalEntry(JournalEntry.Kind.values()[kind], event);
    }

    private static void nullableString(RecordWriter out, String value) {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(clip(value));
        }
    }

    /** writeUTF holds at most 65,535 bytes (3 per char at worst); the columns are far shorter anyway. */
    private static String clip(String value) {
        return value.length() <= MAX_CHARS ? value : value.substring(0, MAX_CHARS);
    }

    private static String nullableString(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    private static void nullableLong(RecordWriter out, Long value) {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeLong(value);
        }
    }

    private static Long nullableLong(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }
}
