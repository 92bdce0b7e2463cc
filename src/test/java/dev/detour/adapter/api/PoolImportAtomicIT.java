package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-2: an import is one transaction, alert channels included. The database itself refuses the document's last
 * channel write (a trigger, so the refusal comes after every check and after the other writes of the document):
 * nothing of the document is left — not the group written before it, not the channel written just before it,
 * no audit row — and the same document imports whole once the database takes it.
 */
class PoolImportAtomicIT {
    private static final String REFUSE_SECOND = "CREATE TRIGGER refuse_ops_second BEFORE UPDATE ON alert_channels "
            + "FOR EACH ROW BEGIN IF NEW.name = 'ops-second' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = "
            + "'refused by the test'; END IF; END";
    private Gateway gw;
    private AlertReceiver receiver;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        receiver = AlertReceiver.start();
    }

    @AfterEach
    void stop() {
        sql("DROP TRIGGER IF EXISTS refuse_ops_second");
        gw.close();
        receiver.close();
    }

    @Test
    void aChannelWriteTheDatabaseRefusesLeavesNothingOfTheDocumentAndTheSameDocumentLaterAppliesWhole() {
        for (String name : List.of("ops-first", "ops-second")) {
            JsonNode channel = gw.admin("POST", "/alerts/channels", "{\"name\":\"" + name + "\",\"kind\":\"webhook\","
                    + "\"url\":\"" + receiver.url("/" + name) + "\",\"events\":[\"account.error\"],"
                    + "\"suppress_seconds\":300}");
            assertTrue(channel.has("id"), channel.toString());
        }
        ObjectNode document = (ObjectNode) gw.admin("GET", "/export", null);
        document.withArray("groups").addObject().put("name", "imported-group");
        document.withArray("alert_channels").forEach(c -> ((ObjectNode) c).put("suppress_seconds", 900));
        long auditBefore = auditRows();
        sql(REFUSE_SECOND);

        HttpResponse<String> refused = importDocument(document);
        assertEquals(500, refused.statusCode(), refused.body());
        assertFalse(refused.body().contains("receiver") || refused.body().contains("/ops-"), "no channel URL leaks");

        assertEquals(List.of("default"), groupNames(), "the group written first was rolled back");
        assertEquals(List.of(300, 300), suppressions(), "the channel written before the refused one was rolled back");
        assertEquals(auditBefore, auditRows(), "no audit row: neither pool.import nor alert_channel.update");

        sql("DROP TRIGGER refuse_ops_second");
        HttpResponse<String> applied = importDocument(document);
        assertEquals(200, applied.statusCode(), applied.body());
        assertEquals(List.of("default", "imported-group"), groupNames());
        assertEquals(List.of(900, 900), suppressions());
        assertEquals(auditBefore + 3, auditRows(), "pool.import and the two alert_channel.update rows, together");
    }

    private HttpResponse<String> importDocument(ObjectNode document) {
        ObjectNode body = Gateway.JSON.createObjectNode();
        body.set("document", document);
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/admin/api/import?dry_run=false"))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build());
    }

    private List<String> groupNames() {
        List<String> names = new ArrayList<>();
        gw.admin("GET", "/groups", null).path("items").forEach(g -> names.add(g.path("name").asText()));
        names.sort(null);
        return names;
    }

    /** The two channels' suppression windows, in name order. */
    private List<Integer> suppressions() {
        List<Integer> seconds = new ArrayList<>();
        List<JsonNode> channels = new ArrayList<>();
        gw.admin("GET", "/alerts/channels", null).path("items").forEach(channels::add);
        channels.sort((a, b) -> a.path("name").asText().compareTo(b.path("name").asText()));
        channels.forEach(c -> seconds.add(c.path("suppress_seconds").asInt()));
        return seconds;
    }

    private long auditRows() {
        return gw.admin("GET", "/audit?limit=200", null).path("items").size();
    }

    private static void sql(String statement) {
        try (Connection c = TestDatabase.database().dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(statement, e);
        }
    }
}
