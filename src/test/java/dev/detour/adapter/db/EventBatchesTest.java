package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.RequestEvent.RejectionRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event columns' JSON is exactly what the object mapper wrote before (rows already stored stay alike). */
class EventBatchesTest {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);

    @Test
    void attemptsAreWrittenAsTheObjectMapperWroteThem() throws Exception {
        List<AttemptRecord> attempts = List.of(
                new AttemptRecord(7, 429, "upstream_status", "account", 12, "retry_same"),
                new AttemptRecord(8, null, "transport", "model", 0, "switch"),
                new AttemptRecord(9, 200, null, null, 1234, "final"),
                new AttemptRecord(10, 500, "odd \"kind\"\n\u00e9\u0001", "x\\y", -1, "switch"));
        assertEquals(MAPPER.writeValueAsString(attempts), EventBatches.attemptsJson(attempts));
        assertEquals("[]", EventBatches.attemptsJson(List.of()));
    }

    @Test
    void rejectionsAreWrittenAsTheObjectMapperWroteThem() throws Exception {
        List<RejectionRecord> rejections = List.of(new RejectionRecord(3, "cooling_down"),
                new RejectionRecord(4, null), new RejectionRecord(5, "quote \" and </script>"));
        assertEquals(MAPPER.writeValueAsString(rejections), EventBatches.rejectionsJson(rejections));
        assertEquals("[]", EventBatches.rejectionsJson(List.of()));
    }
}
