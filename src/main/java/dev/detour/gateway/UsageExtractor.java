package dev.detour.gateway;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Finds token usage in an upstream JSON document or SSE frame, whatever the protocol: every
 * object named {@code usage} is read (OpenAI prompt/completion tokens, Responses and Anthropic
 * input/output tokens, cached and cache-creation tokens). Never throws.
 */
public final class UsageExtractor {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);

    private UsageExtractor() {
    }

    public static Usage fromJson(byte[] bytes, int offset, int length) {
        if (!contains(bytes, offset, length, USAGE)) {
            return Usage.NONE;
        }
        Usage found = Usage.NONE;
        try (JsonParser p = FACTORY.createParser(bytes, offset, length)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME && "usage".equals(p.currentName())) {
                    if (p.nextToken() == JsonToken.START_OBJECT) {
                        found = found.merge(readUsage(p));
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return found;
        }
        return found;
    }

    private static Usage readUsage(JsonParser p) throws IOException {
        long input = 0;
        long output = 0;
        long cacheRead = 0;
        long cacheWrite = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.START_OBJECT) {
                long cached = readCached(p);
                cacheRead = Math.max(cacheRead, cached);
                continue;
            }
            if (v != JsonToken.VALUE_NUMBER_INT) {
                p.skipChildren();
                continue;
            }
            long n = p.getLongValue();
            switch (name) {
                case "prompt_tokens", "input_tokens" -> input = n;
                case "completion_tokens", "output_tokens" -> output = n;
                case "cache_read_input_tokens" -> cacheRead = n;
                case "cache_creation_input_tokens" -> cacheWrite = n;
                default -> {
                }
            }
        }
        return new Usage(input, output, cacheRead, cacheWrite);
    }

    /** {@code prompt_tokens_details} / {@code input_tokens_details}: the cached token count. */
    private static long readCached(JsonParser p) throws IOException {
        long cached = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken v = p.nextToken();
            if (v == JsonToken.VALUE_NUMBER_INT && "cached_tokens".equals(name)) {
                cached = p.getLongValue();
            } else {
                p.skipChildren();
            }
        }
        return cached;
    }

    static boolean contains(byte[] haystack, int offset, int length, byte[] needle) {
        int end = offset + length - needle.length;
        outer:
        for (int i = offset; i <= end; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
