package dev.detour.adapter.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClass;
import dev.detour.core.failure.FailureKind;
import dev.detour.core.failure.Scope;
import dev.detour.gateway.port.PendingState;
import dev.detour.gateway.port.StateJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * D-1: the state changes not yet in MariaDB, one JSON line each, in the event journal's slot of this
 * instance (so a restarted instance finds what its crashed predecessor left). Appended with one write
 * before the request is answered — the page cache keeps it through a {@code kill -9}; like the event
 * journal, a power loss can cost the last fraction of a second — and emptied whenever every queued
 * change is durable. JSON, not the events' binary codec: failures are rare next to requests.
 * A line cut short by a crash ends the reading; the lines before it are replayed.
 */
public final class FileStateJournal implements StateJournal {
    static final String FILE = "state-writes.jsonl";
    private static final Logger log = LoggerFactory.getLogger(FileStateJournal.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path file;
    private FileChannel out;
    private final List<PendingState> leftovers;
    private boolean failing;
    private boolean closed;

    private FileStateJournal(Path file, FileChannel out, List<PendingState> leftovers) {
        this.file = file;
        this.out = out;
        this.leftovers = leftovers;
    }

    /** Opens (or creates) the journal in {@code slotDir}, reading what an earlier run left first. */
    public static FileStateJournal open(Path slotDir) {
        Path file = slotDir.resolve(FILE);
        try {
            List<PendingState> left = Files.exists(file) ? read(file) : List.of();
            FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
            if (!left.isEmpty()) {
                log.info("state journal {}: {} change(s) an earlier run never wrote to the database; writing them",
                        file, left.size());
            }
            return new FileStateJournal(file, out, left);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the state journal " + file, e);
        }
    }

    /** Kept in the file until they are durable again: replaying appends them anew (a retry is idempotent). */
    @Override
    public List<PendingState> leftovers() {
        return leftovers;
    }

    @Override
    public synchronized void append(PendingState change) {
        if (closed) {
            return; // after shutdown's last write try: what is left is already in the file
        }
        byte[] line = (encode(change) + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            ByteBuffer buffer = ByteBuffer.wrap(line);
            Uninterrupted.io(() -> {
                while (buffer.hasRemaining()) {
                    openChannel().write(buffer);
                }
                return null;
            });
            failing = false;
        } catch (IOException e) {
            if (!failing) {
                log.error("state journal {}: cannot append ({}); changes stay in memory only until the "
                        + "database takes them", file, e.toString());
            }
            failing = true;
        }
    }

    @Override
    public synchronized void clear() {
        if (closed) {
            return;
        }
        try {
            Uninterrupted.io(() -> openChannel().truncate(0));
        } catch (IOException e) {
            log.warn("state journal {}: cannot empty it ({}); its changes would be written again at the next "
                    + "start (harmless: every write is idempotent)", file, e.toString());
        }
    }

    /** The append channel, opened again if an interrupt that slipped past {@link Uninterrupted} closed it. */
    private FileChannel openChannel() throws IOException {
        if (!out.isOpen()) {
            out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        }
        return out;
    }

    @Override
    public synchronized void close() {
        closed = true;
        try {
            out.close();
        } catch (IOException e) {
            log.warn("state journal {}: close failed: {}", file, e.toString());
        }
    }

    static List<PendingState> read(Path file) throws IOException {
        List<PendingState> changes = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            try {
                changes.add(decode(line));
            } catch (IOException | RuntimeException e) {
                log.warn("state journal {}: line {} unreadable ({}); the {} line(s) after it are skipped", file,
                        i + 1, e.toString(), lines.size() - i - 1);
                break;
            }
        }
        return changes;
    }

    static String encode(PendingState change) {
        ObjectNode node = JSON.createObjectNode();
        if (change instanceof PendingState.FailureSeen f) {
            node.put("type", "failure").put("id", f.id()).put("account", f.accountId()).put("model", f.modelKey())
                    .put("at", f.at().toString());
            node.set("failure", failure(f.failure()));
        } else if (change instanceof PendingState.SuccessSeen s) {
            node.put("type", "success").put("id", s.id()).put("account", s.accountId()).put("model", s.modelKey())
                    .put("at", s.at().toString());
        } else if (change instanceof PendingState.GroupHalt h) {
            node.put("type", "halt").put("group", h.groupId()).put("until", text(h.until())).put("streak", h.streak())
                    .put("reason", h.reason()).put("at", h.at().toString());
        } else {
            throw new IllegalArgumentException("unknown state change " + change);
        }
        return node.toString();
    }

    static PendingState decode(String line) throws IOException {
        JsonNode node = JSON.readTree(line);
        String type = node.path("type").asText();
        switch (type) {
            case "failure":
                return new PendingState.FailureSeen(node.get("id").asText(), node.get("account").asLong(),
                        textOrNull(node, "model"), failure(node.get("failure")), Instant.parse(node.get("at").asText()));
            case "success":
                return new PendingState.SuccessSeen(node.get("id").asText(), node.get("account").asLong(),
                        textOrNull(node, "model"), Instant.parse(node.get("at").asText()));
            case "halt":
                return new PendingState.GroupHalt(node.get("group").asLong(), instantOrNull(node, "until"),
                        node.get("streak").asInt(), textOrNull(node, "reason"), Instant.parse(node.get("at").asText()));
            default:
                throw new IOException("unknown state change type '" + type + "'");
        }
    }

    private static ObjectNode failure(Failure f) {
        ObjectNode node = JSON.createObjectNode();
        node.put("class", f.failureClass().name()).put("kind", f.kind().name()).put("scope", f.scope().name())
                .put("model", f.modelKey());
        if (f.status() != null) {
            node.put("status", f.status());
        }
        node.put("code", f.errorCode()).put("type", f.errorType()).put("message", f.message())
                .put("body", f.responseBody()).put("fingerprint", f.fingerprint()).put("quota", f.quota())
                .put("rate_limited", f.rateLimited()).put("unreachable", f.unreachable()).put("billing", f.billing())
                .put("overloaded", f.overloaded()).put("retry_at", text(f.retryAt()));
        if (f.retryAfter() != null) {
            node.put("retry_after_ms", f.retryAfter().toMillis());
        }
        return node;
    }

    private static Failure failure(JsonNode n) {
        return new Failure(FailureClass.valueOf(n.get("class").asText()), FailureKind.valueOf(n.get("kind").asText()),
                Scope.valueOf(n.get("scope").asText()), textOrNull(n, "model"),
                n.hasNonNull("status") ? n.get("status").asInt() : null, textOrNull(n, "code"), textOrNull(n, "type"),
                textOrNull(n, "message"), textOrNull(n, "body"), textOrNull(n, "fingerprint"),
                n.path("quota").asBoolean(), n.path("rate_limited").asBoolean(), n.path("unreachable").asBoolean(),
                n.path("billing").asBoolean(), n.path("overloaded").asBoolean(), instantOrNull(n, "retry_at"),
                n.hasNonNull("retry_after_ms") ? Duration.ofMillis(n.get("retry_after_ms").asLong()) : null);
    }

    private static String text(Instant at) {
        return at == null ? null : at.toString();
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Instant instantOrNull(JsonNode node, String field) {
        String text = textOrNull(node, field);
        return text == null ? null : Instant.parse(text);
    }
}
