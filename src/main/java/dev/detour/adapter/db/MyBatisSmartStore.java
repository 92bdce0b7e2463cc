package dev.detour.adapter.db;

import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.core.selection.BlockRule;
import dev.detour.core.selection.BlockScope;
import dev.detour.core.selection.ModelPrice;
import dev.detour.gateway.port.SmartStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link SmartStore} on MariaDB; response bindings are written by one background thread (P-10, N-2). */
public final class MyBatisSmartStore implements SmartStore, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(MyBatisSmartStore.class);
    private final Database database;
    private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "detour-binding-writer");
        t.setDaemon(true);
        return t;
    });

    public MyBatisSmartStore(Database database) {
        this.database = database;
    }

    @Override
    public Data load() {
        return database.read(s -> {
            SmartMapper mapper = s.getMapper(SmartMapper.class);
            Map<String, ModelPrice> prices = new HashMap<>();
            mapper.selectPrices().forEach(p -> prices.put(p.model(),
                    new ModelPrice(p.inputMicrosPerM(), p.outputMicrosPerM(), p.cacheReadMicrosPerM(),
                            p.cacheWrite5mMicrosPerM(), p.cacheWrite1hMicrosPerM())));
            List<BlockRule> blocks = new ArrayList<>();
            mapper.selectBlocks().forEach(b -> blocks.add(rule(b)));
            Map<Long, Long> spent = new HashMap<>();
            mapper.selectSpent().forEach(k -> spent.put(k.id(), k.spentMicros()));
            Map<Long, String> groups = new HashMap<>();
            mapper.selectGroupNames().forEach(g -> groups.put(g.id(), g.name()));
            return new Data(Map.copyOf(prices), List.copyOf(blocks), spent, Map.copyOf(groups));
        });
    }

    @Override
    public Map<Long, Long> loadSpent() {
        Map<Long, Long> spent = new HashMap<>();
        database.read(s -> s.getMapper(SmartMapper.class).selectSpent())
                .forEach(k -> spent.put(k.id(), k.spentMicros()));
        return spent;
    }

    public static BlockRule rule(BlockRuleEntry b) {
        return new BlockRule(b.id(), BlockScope.fromWire(b.scope()), b.value(), b.reason(), b.operator(),
                b.expiresAt());
    }

    @Override
    public void bindResponse(String responseId, long accountId, Instant expiresAt) {
        writer.execute(() -> {
            try {
                database.inTransaction(s -> s.getMapper(SmartMapper.class)
                        .upsertResponseBinding(responseId, accountId, expiresAt));
            } catch (RuntimeException e) {
                if (!DatabaseErrors.unavailable(e)) { // D-1: an outage is logged once, by DatabaseHealth
                    log.warn("response binding {} not written: {}", responseId, e.toString());
                }
            }
        });
    }

    @Override
    public Long boundAccount(String responseId, Instant now) {
        return database.read(s -> s.getMapper(SmartMapper.class).selectResponseBinding(responseId, now));
    }

    /** D-3: the bindings queued so far are written before the pool closes (bounded: a shutdown never hangs). */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS)) {
                log.warn("response bindings still queued at shutdown were not written");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
