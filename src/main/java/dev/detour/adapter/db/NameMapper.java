package dev.detour.adapter.db;

import dev.detour.admin.port.EventNames;
import java.util.List;

/** U-7: ids to names for the request log and dashboard (archived accounts included). SQL in NameMapper.xml. */
public interface NameMapper {
    List<EventNames.Named> selectKeys();

    List<EventNames.Named> selectAccounts();

    List<EventNames.Named> selectGroups();

    List<String> selectModels();
}
