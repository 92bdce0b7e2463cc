package dev.detour.adapter.proxy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.detour.core.selection.SessionIds;
import dev.detour.gateway.port.RequestPeek;
import dev.detour.json.JsonFactories;
import java.io.IOException;

/**
 * Streaming look at a request body (P-2): one pass with Jackson's token parser, nested values
 * skipped, no tree. Throws {@link InvalidJsonException} for malformed JSON or invalid UTF-8.
 */
public final class JsonPeeker {
    private static final JsonFactory FACTORY = JsonFactories.streaming();

    private JsonPeeker() {
    }

    public static RequestPeek peek(byte[] body) {
        if (body.length == 0) {
            return RequestPeek.EMPTY;
        }
        try (JsonParser p = FACTORY.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new InvalidJsonException("request body must be a JSON object");
            }
            Fields f = new Fields();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                readField(p, name, value, f);
            }
            if (p.nextToken() != null) {
                throw new InvalidJsonException("trailing data after the JSON object");
            }
            return new RequestPeek(f.model, f.modelStart, f.modelEnd, f.stream, f.previousResponseId,
                    f.conversation, f.store, f.background, f.sessionId(), f.includeUsage);
        } catch (InvalidJsonException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new InvalidJsonException("request body is not valid JSON: " + firstLine(e.getMessage()));
        }
    }

    private static void readField(JsonParser p, String name, JsonToken value, Fields f) throws IOException {
        switch (name) {
            case "model" -> {
                if (f.modelStart >= 0) {
                    // two model fields would let Detour route one name while the upstream bills another
                    throw new InvalidJsonException("duplicate model field");
                }
                if (value == JsonToken.VALUE_STRING) {
                    f.modelStart = (int) p.currentTokenLocation().getByteOffset();
                    f.model = p.getText();
                    f.modelEnd = (int) p.currentLocation().getByteOffset();
                } else {
                    p.skipChildren();
                }
            }
            case "stream" -> f.stream = value == JsonToken.VALUE_TRUE;
            case "store" -> f.store = value == JsonToken.VALUE_TRUE;
            case "background" -> f.background = value == JsonToken.VALUE_TRUE;
            case "previous_response_id" -> f.previousResponseId = text(p, value);
            case "conversation" -> f.conversation = conversation(p, value);
            case "metadata" -> readMetadata(p, value, f);
            case "stream_options" -> f.includeUsage = includeUsage(p, value);
            case "conversation_id" -> f.topConversationId = text(p, value);
            case "conversationId" -> f.topConversationIdCamel = text(p, value);
            case "prompt_cache_key" -> f.promptCacheKey = text(p, value);
            case "user" -> f.user = text(p, value);
            default -> p.skipChildren();
        }
    }

    private static void readMetadata(JsonParser p, JsonToken value, Fields f) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return;
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            switch (name) {
                case "conversation_id" -> f.metaConversationId = text(p, v);
                case "conversationId" -> f.metaConversationIdCamel = text(p, v);
                case "user_id" -> f.metaUserId = text(p, v);
                default -> p.skipChildren();
            }
        }
    }

    /**
     * {@code stream_options.include_usage}, read as a JSON tree's {@code asBoolean(false)} reads it: true, the
     * text "true", or a non-zero whole number.
     */
    private static boolean includeUsage(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return false;
        }
        boolean include = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if ("include_usage".equals(name)) {
                include = v == JsonToken.VALUE_TRUE || v == JsonToken.VALUE_STRING && "true".equals(p.getText().trim())
                        || v == JsonToken.VALUE_NUMBER_INT && p.getBigIntegerValue().signum() != 0;
            }
            p.skipChildren();
        }
        return include;
    }

    /** {@code conversation} is a string id or an object with an {@code id}. */
    private static String conversation(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return p.getText();
        }
        if (value != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        String id = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if ("id".equals(name) && v == JsonToken.VALUE_STRING) {
                id = p.getText();
            } else {
                p.skipChildren();
            }
        }
        return id;
    }

    private static String text(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING || value == JsonToken.VALUE_NUMBER_INT) {
            String s = p.getText();
            return s.isEmpty() ? null : s;
        }
        p.skipChildren();
        return null;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    private static final class Fields {
        String model;
        int modelStart = -1;
        int modelEnd = -1;
        boolean stream;
        boolean store;
        boolean background;
        boolean includeUsage;
        String previousResponseId;
        String conversation;
        String metaConversationId;
        String metaConversationIdCamel;
        String metaUserId;
        String topConversationId;
        String topConversationIdCamel;
        String promptCacheKey;
        String user;

        /**
         * S-6 order (P-12: Claude Code's session inside metadata.user_id first): the user_id's session,
         * metadata.conversation_id, metadata.conversationId, metadata.user_id, top-level ids,
         * prompt_cache_key, user. Session headers outrank all of these (ProxyHandler, SessionIds).
         */
        String sessionId() {
            for (String s : new String[] {SessionIds.fromUserId(metaUserId), metaConversationId,
                    metaConversationIdCamel, metaUserId,
                    topConversationId, topConversationIdCamel, promptCacheKey, user}) {
                if (s != null) {
                    return s;
                }
            }
            return null;
        }
    }
}
