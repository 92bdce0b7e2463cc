package dev.detour.adapter.db;

import dev.detour.admin.port.LoggedRequest;
import dev.detour.admin.port.RequestEvents;
import dev.detour.admin.port.RequestFilter;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The request log in {@code request_events}. */
public final class MyBatisRequestEvents implements RequestEvents {
    private final Database database;

    public MyBatisRequestEvents(Database database) {
        this.database = database;
    }

    @Override
    public List<LoggedRequest> page(RequestFilter f, Long beforeId, int limit) {
        EventQuery query = new EventQuery(f.keyId(), f.accountId(), f.groupId(), f.model(), f.outcome(), f.status(),
                f.from(), f.to(), beforeId, limit);
        return database.read(s -> s.getMapper(EventMapper.class).selectPage(query));
    }

    @Override
    public Optional<LoggedRequest> find(String requestId) {
        return Optional.ofNullable(database.read(s -> s.getMapper(EventMapper.class).selectByRequestId(requestId)));
    }

    @Override
    public int deleteOlderThan(Instant cutoff, int batchSize) {
        return database.inTransaction(s -> s.getMapper(EventMapper.class).deleteOlderThan(cutoff, batchSize));
    }
}
