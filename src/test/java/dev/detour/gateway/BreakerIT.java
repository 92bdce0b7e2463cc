package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.fake.FakeUpstream;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TwoUpstreamsCase;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * C-6 end to end: threshold, ladder, half-open trial, success reset; exponential backoff across a restart.
 * The breaker accounts state cooldown off, the default when these were written (C-1' turned it on): each
 * failure here must reach the breaker, not be stopped earlier by a 10 s cooldown.
 */
class BreakerIT extends TwoUpstreamsCase {
    private static final String MAPS = "[{\"from\":\"gpt-5.6-sol\",\"to\":\"upstream-sol\"}]";

    @Test
    void thirdConsecutiveFailureOpensForThirtyMinutesThenOneHalfOpenTrialThenSuccessResets() {
        long idA = gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,"
                + "\"cooldown_enabled\":false},"
                + "\"breaker\":{\"enabled\":true,\"threshold\":3}}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        for (int i = 1; i <= 3; i++) {
            a.enqueue(Reply.openAiError(500, "upstream broke", "server_error"));
            assertEquals(200, gw.chat("gpt-5.6-sol").statusCode(), "b serves while a fails");
            gw.clock.advance(Duration.ofSeconds(1));
        }
        JsonNode open = gw.accountState(idA);
        assertEquals(1800 - 1, open.path("breaker_remaining_s").asInt(), "opened at the third failure for 30 min");
        assertEquals(1, open.path("breaker_step").asInt());

        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(3, a.requestCount(), "an open breaker is not tried");

        gw.clock.advance(Duration.ofMinutes(30)); // half-open: one trial, which fails → next step (1 h)
        a.enqueue(Reply.openAiError(500, "still broken", "server_error"));
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(4, a.requestCount());
        JsonNode reopened = gw.accountState(idA);
        assertEquals(3600, reopened.path("breaker_remaining_s").asInt());
        assertEquals(2, reopened.path("breaker_step").asInt());

        gw.clock.advance(Duration.ofHours(1)); // half-open again: the trial succeeds → everything reset
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        assertEquals(5, a.requestCount());
        JsonNode reset = gw.accountState(idA);
        assertEquals(0, reset.path("breaker_remaining_s").asInt());
        assertEquals(0, reset.path("breaker_step").asInt());
        assertEquals(0, reset.path("breaker_failure_streak").asInt());
    }

    @Test
    void theExponentialBackoffStreakSurvivesARestart() {
        FakeUpstream dead = FakeUpstream.start();
        long idDead = gw.account("dead", dead, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,"
                + "\"cooldown_enabled\":false},"
                + "\"backoff\":{\"mode\":\"exponential\",\"base_seconds\":600,\"cap_seconds\":7200}}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        dead.close(); // connection refused: an account-scoped transport failure
        assertEquals(200, gw.chat("gpt-5.6-sol").statusCode());
        JsonNode first = gw.accountState(idDead);
        assertEquals(1, first.path("backoff_streak").asInt());
        assertEquals(600, first.path("cooldown_remaining_s").asInt());

        gw.app.close(); // restart: a fresh process reads the streak back from MariaDB
        gw.clock.advance(Duration.ofMinutes(11));
        try (App restarted = TestApp.start(gw.clock)) {
            assertEquals(0, restarted.snapshot().view().byId().get(idDead).failure().cooldownUntil()
                    .compareTo(gw.clock.instant().minus(Duration.ofMinutes(1))));
            assertEquals(1, restarted.snapshot().view().byId().get(idDead).failure().backoffStreak());
            Forwarding.chat(restarted, gw.key(), "gpt-5.6-sol");
            var after = restarted.snapshot().view().byId().get(idDead).failure();
            assertEquals(2, after.backoffStreak(), "the streak continued after the restart");
            assertEquals(gw.clock.instant().plusSeconds(1200), after.cooldownUntil(), "600 s × 2");
        }
    }

    private long breakerAccount() {
        long idA = gw.account("a", a, MAPS, "{\"priority\":0,\"failure_policy\":{\"retry_count\":0,"
                + "\"cooldown_enabled\":false},"
                + "\"breaker\":{\"enabled\":true,\"threshold\":3}}");
        gw.account("b", b, MAPS, "{\"priority\":1}");
        return idA;
    }

    private void failOnA(int times) {
        for (int i = 0; i < times; i++) {
            a.enqueue(Reply.openAiError(500, "upstream broke", "server_error"));
            assertEquals(200, gw.chat("gpt-5.6-sol").statusCode(), "b serves while a fails");
            gw.clock.advance(Duration.ofSeconds(1));
        }
    }

    @Test
    void whileTheHalfOpenTrialRunsEveryOtherRequestSkipsTheAccount() throws Exception {
        long idA = breakerAccount();
        failOnA(3);
        gw.clock.advance(Duration.ofMinutes(30));
        CountDownLatch release = new CountDownLatch(1);
        a.enqueue(Reply.stallBeforeHeaders().releasedBy(release));
        CompletableFuture<HttpResponse<String>> trial = CompletableFuture.supplyAsync(() -> gw.chat("gpt-5.6-sol"));
        a.awaitRequests(4); // the trial is at a, held
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> other = gw.chat("gpt-5.6-sol");
            assertEquals(200, other.statusCode());
            gw.events(4 + i);
            JsonNode event = gw.event(other.headers().firstValue("x-detour-request-id").orElseThrow());
            assertEquals(true, event.path("rejections").toString().contains("rejected_cooling"), event.toString());
        }
        assertEquals(4, a.requestCount(), "one trial at a time");
        release.countDown();
        assertEquals(200, trial.join().statusCode());
        assertEquals(0, gw.accountState(idA).path("breaker_step").asInt(), "the trial's success reset the ladder");
    }

    @Test
    void theBreakerStreakSurvivesARestart() {
        long idA = breakerAccount();
        failOnA(2);
        assertEquals(2, gw.accountState(idA).path("breaker_failure_streak").asInt());
        gw.app.close(); // restart: the streak is read back from MariaDB
        try (App restarted = TestApp.start(gw.clock)) {
            a.enqueue(Reply.openAiError(500, "upstream broke", "server_error"));
            assertEquals(200, Forwarding.chat(restarted, gw.key(), "gpt-5.6-sol").statusCode());
            var failure = restarted.snapshot().view().byId().get(idA).failure();
            assertEquals(1, failure.breakerStep(), "the third failure, across the restart, opened the breaker");
            assertEquals(gw.clock.instant().plus(Duration.ofMinutes(30)), failure.breakerOpenUntil());
        }
    }
}
