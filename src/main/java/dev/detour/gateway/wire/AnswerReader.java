package dev.detour.gateway.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.failure.UpstreamErrorFields;
import dev.detour.core.failure.UpstreamErrorFields.TopValue;
import dev.detour.core.usage.TokenUsage;
import dev.detour.json.JsonFactories;
import java.io.IOException;

/**
 * Reads an upstream JSON answer once with Jackson's token parser (N-1): token usage in every object
 * named {@code usage}, normalised for the upstream's protocol (B-4, as {@code bridge/UsageJson} reads a
 * tree), the S-7 cost inside it, the P-10 top-level id, and the F-4 envelope facts.
 * Never throws: what was read before invalid JSON is kept, and such a document is never clear.
 */
public final class AnswerReader {
    private static final JsonFactory FACTORY = JsonFactories.streaming();

    private final EndpointFamily protocol;
    private TokenUsage usage = TokenUsage.NONE;
    private boolean usageSeen;
    private long cost = -1;
    private boolean costSeen;
    private String responseId;
    private boolean idSeen;
    private boolean envelopeFieldSeen;

    private AnswerReader(EndpointFamily protocol) {
        this.protocol = protocol;
    }

    /** @param protocol the protocol the upstream answered in: it decides what its usage counts mean */
    public static AnswerFacts read(EndpointFamily protocol, byte[] bytes) {
        return read(protocol, bytes, 0, bytes.length);
    }

    public static AnswerFacts read(EndpointFamily protocol, byte[] bytes, int offset, int length) {
        AnswerReader reader = new AnswerReader(protocol);
        boolean complete = reader.scan(bytes, offset, length);
        boolean clear = complete && !reader.envelopeFieldSeen && startsWithBrace(bytes, offset, length);
        return new AnswerFacts(reader.usage, reader.usageSeen, reader.cost, reader.responseId, clear);
    }

    /** True when the bytes were exactly one JSON object (then whitespace); facts are read either way. */
    private boolean scan(byte[] bytes, int offset, int length) {
        int depth = 0;
        int roots = 0;
        try (JsonParser p = FACTORY.createParser(bytes, offset, length)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME) {
                    depth += field(p, depth == 1 && roots == 0);
                } else if (t.isStructStart()) {
                    depth++;
                } else if (t.isStructEnd()) {
                    depth--;
                    roots += depth == 0 ? 1 : 0;
                } else if (depth == 0) {
                    roots++; // a scalar document
                }
            }
            return roots == 1;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Reads one field's value token; returns 1 when it opened a container the main loop walks into. */
    private int field(JsonParser p, boolean topLevel) throws IOException {
        String name = p.currentName();
        JsonToken value = p.nextToken();
        if (value == JsonToken.START_OBJECT && "usage".equals(name)) {
            readUsage(p);
            return 0;
        }
        if (topLevel) {
            topField(p, name, value);
        }
        return value.isStructStart() ? 1 : 0;
    }

    private void topField(JsonParser p, String name, JsonToken value) throws IOException {
        String text = value == JsonToken.VALUE_STRING ? p.getText() : null;
        if ("id".equals(name) && text != null && !idSeen) {
            idSeen = true; // P-10: the first top-level string id decides
            responseId = text.isEmpty() || text.length() > 191 ? null : text;
        }
        envelopeFieldSeen |= UpstreamErrorFields.feedsEnvelope(name, kind(value), text);
    }

    private static TopValue kind(JsonToken value) {
        if (value == JsonToken.VALUE_STRING) {
            return TopValue.STRING;
        }
        if (value.isNumeric()) {
            return TopValue.NUMBER;
        }
        return value == JsonToken.START_OBJECT ? TopValue.OBJECT : TopValue.OTHER;
    }

    /** One usage object, up to its end: token counts, one level of details, and the cost. */
    private void readUsage(JsonParser p) throws IOException {
        usageSeen = true;
        UsageCounts counts = new UsageCounts();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.START_OBJECT) {
                counts.splitByLifetime |= "cache_creation".equals(name);
                readDetails(p, counts);
            } else if (v.isNumeric() && "cost".equals(name)) {
                readCost(p);
            } else if (v == JsonToken.VALUE_NUMBER_INT) {
                counts.put(name, p.getLongValue());
            } else {
                p.skipChildren();
            }
        }
        usage = usage.merge(counts.normalised(protocol));
    }

    /** A details object ({@code prompt_tokens_details}, {@code cache_creation}, …): its counts, no deeper. */
    private static void readDetails(JsonParser p, UsageCounts counts) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NUMBER_INT) {
                counts.put(name, p.getLongValue());
            } else {
                p.skipChildren();
            }
        }
    }

    /** S-7: the first cost in a usage object decides, in currency units; a negative one means none. */
    private void readCost(JsonParser p) throws IOException {
        if (costSeen) {
            return;
        }
        costSeen = true;
        double value = p.getDoubleValue();
        cost = value < 0 || Double.isNaN(value) ? -1 : Math.round(value * 1_000_000d);
    }

    /** The counts of one usage object under each protocol's names; negative counts read as 0. */
    private static final class UsageCounts {
        long prompt;
        long output;
        long cached;
        long reasoning;
        long cacheRead;
        long cacheCreation;
        long write5m;
        long write1h;
        boolean splitByLifetime;

        void put(String name, long value) {
            long n = Math.max(0, value);
            switch (name) {
                case "prompt_tokens", "input_tokens" -> prompt = n;
                case "completion_tokens", "output_tokens" -> output = n;
                case "cached_tokens" -> cached = n;
                case "reasoning_tokens" -> reasoning = n;
                case "cache_read_input_tokens" -> cacheRead = n;
                case "cache_creation_input_tokens" -> cacheCreation = n;
                case "ephemeral_5m_input_tokens" -> write5m = n;
                case "ephemeral_1h_input_tokens" -> write1h = n;
                default -> {
                }
            }
        }

        /**
         * B-4: Anthropic counts cache reads and writes apart from input_tokens (writes split by lifetime
         * when cache_creation is given, else all 5 min) and reports no reasoning apart; OpenAI's prompt
         * count includes its cached tokens, and its output count includes reasoning.
         */
        TokenUsage normalised(EndpointFamily protocol) {
            if (protocol == EndpointFamily.MESSAGES) {
                return new TokenUsage(prompt, output, cacheRead, splitByLifetime ? write5m : cacheCreation,
                        splitByLifetime ? write1h : 0, 0);
            }
            return new TokenUsage(Math.max(0, prompt - cached), output, cached, 0, 0, reasoning);
        }
    }

    /** What String.strip() would leave starting with '{' (a BOM or any other byte is not clear). */
    private static boolean startsWithBrace(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '{';
            }
        }
        return false;
    }
}
