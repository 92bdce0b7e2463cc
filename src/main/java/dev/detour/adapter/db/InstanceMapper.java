package dev.detour.adapter.db;

import dev.detour.core.cluster.RegisteredInstance;
import java.time.Instant;
import java.util.List;
import org.apache.ibatis.annotations.Param;

/** G-2 detour_instances (the instance registry); SQL in InstanceMapper.xml. */
public interface InstanceMapper {
    int upsertInstance(RegisteredInstance instance);

    List<RegisteredInstance> selectInstances();

    int deleteInstance(@Param("id") String id);

    int deleteUnseenSince(@Param("before") Instant before);
}
