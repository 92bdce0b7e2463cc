package dev.detour.core.failure;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for failure detection: objects become {@code Map<String,Object>}, arrays
 * {@code List<Object>}, strings {@code String}, numbers {@code BigDecimal},
 * booleans {@code Boolean}, null {@link #NULL}. It never throws: invalid JSON, a prefix of a
 * huge body or a document nested deeper than {@value #MAX_DEPTH} yield {@code null} (N-5).
 * Core is pure, so no Jackson here.
 */
public final class LenientJson {
    /** Stands for a JSON null (a Java null means "not JSON"). */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };
    static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;

    private LenientJson(String text) {
        this.text = text;
    }

    /** The parsed value, or null when the text is not one complete JSON document. */
    public static Object parse(String text) {
        if (text == null) {
            return null;
        }
        try {
            LenientJson reader = new LenientJson(text);
            Object value = reader.value(0);
            reader.skipWhitespace();
            return reader.pos == text.length() ? value : null;
        } catch (Malformed | IndexOutOfBoundsException e) {
            return null;
        }
    }

    /** The parsed object, or null when the text is not a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object value = parse(text);
        return value instanceof Map ? (Map<String, Object>) value : null;
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) {
            throw new Malformed();
        }
        skipWhitespace();
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object(depth);
            case '[':
                return array(depth);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", NULL);
            default:
                return number();
        }
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        skipWhitespace();
        if (peek('}')) {
            pos++;
            return map;
        }
        while (true) {
            skipWhitespace();
            expect('"');
            pos--;
            String key = string();
            skipWhitespace();
            expect(':');
            map.put(key, value(depth + 1));
            skipWhitespace();
            if (peek(',')) {
                pos++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array(int depth) {
        List<Object> list = new ArrayList<>();
        pos++;
        skipWhitespace();
        if (peek(']')) {
            pos++;
            return list;
        }
        while (true) {
            list.add(value(depth + 1));
            skipWhitespace();
            if (peek(',')) {
                pos++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> sb.append(unicodeEscape());
                case '"', '\\', '/' -> sb.append(e);
                default -> throw new Malformed();
            }
        }
    }

    private char unicodeEscape() {
        String hex = text.substring(pos, pos + 4);
        pos += 4;
        try {
            return (char) Integer.parseInt(hex, 16);
        } catch (NumberFormatException e) {
            throw new Malformed();
        }
    }

    private BigDecimal number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        try {
            return new BigDecimal(text.substring(start, pos));
        } catch (NumberFormatException e) {
            throw new Malformed();
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, pos)) {
            throw new Malformed();
        }
        pos += word.length();
        return value;
    }

    private void skipWhitespace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw new Malformed();
        }
        pos++;
    }

    /** Internal signal; never escapes {@link #parse}. */
    private static final class Malformed extends RuntimeException {
        Malformed() {
            super(null, null, false, false);
        }
    }
}
