package dev.detour.adapter.db;

import dev.detour.admin.RequestEvents;
import java.time.Instant;

/** The request log in {@code request_events}. */
public final class MyBatisRequestEvents implements RequestEvents {
    private final Database database;

    public MyBatisRequestEvents(Database database) {
        this.database = database;
    }

    @Override
    public int deleteOlderThan(Instant cutoff, int batchSize) {
        return database.inTransaction(s -> s.getMapper(EventMapper.class).deleteOlderThan(cutoff, batchSize));
    }
}
