package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Message content in any of the three protocols: absent, one string, or an array of parts each codec reads. */
final class Content {
    /** Reads one element of a content array into a part, refusing what the bridge cannot carry. */
    interface PartReader {
        Part read(JsonNode part) throws BridgeRefusal;
    }

    private Content() {
    }

    static List<Part> read(JsonNode content, PartReader reader) throws BridgeRefusal {
        List<Part> parts = new ArrayList<>();
        if (content == null || content.isNull()) {
            return parts;
        }
        if (content.isTextual()) {
            parts.add(new Part.Text(content.asText()));
            return parts;
        }
        for (JsonNode part : content) {
            parts.add(reader.read(part));
        }
        return parts;
    }
}
