package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;

/** Trees compared by value: a number is equal to the same number of another width (1, 1L, 1.0). */
final class JsonAssert {
    private static final Comparator<JsonNode> BY_VALUE = (a, b) -> {
        if (a.equals(b)) {
            return 0;
        }
        return a.isNumber() && b.isNumber() && a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;
    };

    private JsonAssert() {
    }

    static void assertJson(JsonNode expected, JsonNode actual) {
        if (!expected.equals(BY_VALUE, actual)) {
            assertEquals(expected.toPrettyString(), actual.toPrettyString()); // shows the difference
            assertEquals(expected, actual); // same text, different node kinds
        }
    }
}
