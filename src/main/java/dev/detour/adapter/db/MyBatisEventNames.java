package dev.detour.adapter.db;

import dev.detour.admin.port.EventNames;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** U-7 names from the database in one session (every key, account and group, and the models requested). */
public final class MyBatisEventNames implements EventNames.Source {
    private final Database database;

    public MyBatisEventNames(Database database) {
        this.database = database;
    }

    @Override
    public EventNames all() {
        return database.read(s -> {
            NameMapper m = s.getMapper(NameMapper.class);
            return new EventNames(byId(m.selectKeys()), byId(m.selectAccounts()), byId(m.selectGroups()),
                    List.copyOf(m.selectModels()));
        });
    }

    private static Map<Long, EventNames.Named> byId(List<EventNames.Named> rows) {
        Map<Long, EventNames.Named> map = new LinkedHashMap<>();
        rows.forEach(r -> map.put(r.id(), r));
        return map;
    }
}
