package dev.detour.adapter.db;

import java.util.List;

/** SQL in SettingsMapper.xml. */
public interface SettingsMapper {
    List<SettingRow> selectAll();

    int upsert(SettingRow row);
}
