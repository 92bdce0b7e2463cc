package dev.detour.adapter.db;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/** L-1 key_limit_counts (per-key counts shared by the instances); SQL in KeyLimitMapper.xml. */
public interface KeyLimitMapper {
    int addCounts(@Param("counts") List<KeyLimitCountRow> counts);

    List<KeyLimitCountRow> selectCounts();

    int deleteCountsBefore(@Param("kind") String kind, @Param("bucket") long bucket);
}
