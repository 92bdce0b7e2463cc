package dev.detour.adapter.db;

import dev.detour.adapter.crypto.SecretBox;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;

/**
 * The pool store ITs' fixture: the app on the test database with one account {@code a} mapping
 * gpt → up-gpt and glm → up-glm (no same-account retry, 10 s cooldowns), and a MyBatis pool store on it.
 */
record TwoModelAccount(Gateway gw, FakeUpstream upstream, MyBatisPoolStore store, long id) implements AutoCloseable {
    static TwoModelAccount start() {
        Gateway gw = Gateway.start();
        FakeUpstream upstream = FakeUpstream.start();
        long id = gw.account("a", upstream, "[{\"from\":\"gpt\",\"to\":\"up-gpt\"},{\"from\":\"glm\",\"to\":\"up-glm\"}]",
                "{\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":true,\"cooldown_seconds\":10}}");
        return new TwoModelAccount(gw, upstream, new MyBatisPoolStore(gw.app.database(),
                new SecretBox(TestApp.MASTER_KEY)), id);
    }

    @Override
    public void close() {
        gw.close();
        upstream.close();
    }
}
