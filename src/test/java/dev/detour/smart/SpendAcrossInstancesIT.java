package dev.detour.smart;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * K-2 / G-3: a key's spend limit is counted once for all instances on one database: what one instance
 * charged is seen by the other at its next spend read (every second; the test calls it), although nothing
 * else moved the pool revision.
 */
class SpendAcrossInstancesIT {
    private Gateway gw;
    private App second;
    private FakeUpstream up;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        up = FakeUpstream.start();
        SmartFixture fx = new SmartFixture(gw);
        fx.account("a", up, "default", 0, "m", "up-m");
        fx.prices("[{\"model\":\"up-m\",\"input_micros_per_m\":1000000,\"output_micros_per_m\":1000000}]");
    }

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
        gw.close();
        up.close();
    }

    @Test
    void aKeysSpendThroughOneInstanceStopsItOnTheOtherAtItsNextSpendRead() {
        SmartFixture fx = new SmartFixture(gw);
        JsonNode created = fx.createKey("{\"name\":\"budget\",\"spend_limit\":0.00001}");
        String key = created.path("key").asText();
        second = TestApp.start(gw.clock); // its snapshot already holds the key and the prices
        long revision = revision();

        assertEquals(200, fx.chat(key, "m").statusCode(), "under the limit through the first instance");
        long id = created.path("id").asLong();
        Gateway.await(() -> gw.admin("GET", "/keys/" + id, null).path("spent_micros").asLong() >= 10,
                "the first instance's charge written");
        assertEquals(revision, revision(), "spend alone does not move the pool revision");

        second.smartKeys().refreshSpend(); // the second instance's once-a-second spend read
        HttpResponse<String> refused = gw.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + second.port()
                + "/v1/chat/completions")).header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build());
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("key.spend_limit", SmartFixture.errorCode(refused));
        assertEquals(1, up.requestCount(), "only the first instance's request reached the upstream");
    }

    private static long revision() {
        return dev.detour.testkit.Rows.number("SELECT revision FROM pool_revision WHERE id = 1");
    }
}
