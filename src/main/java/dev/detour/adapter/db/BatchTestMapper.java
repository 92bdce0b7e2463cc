package dev.detour.adapter.db;

import java.util.List;
import org.apache.ibatis.annotations.Param;

/** W-3 batch_tests and batch_test_results; SQL in BatchTestMapper.xml. */
public interface BatchTestMapper {
    int insertBatch(BatchTestRow batch);

    int insertLines(@Param("lines") List<BatchLineRow> lines);

    int updateLine(BatchLineRow line);

    BatchTestRow selectBatch(@Param("id") String id);

    List<BatchLineRow> selectLines(@Param("batchId") String batchId);

    /** Ids of the batches after the newest {@code keep}. */
    List<String> selectOlderThanNewest(@Param("keep") int keep);

    int deleteLines(@Param("ids") List<String> ids);

    int deleteBatches(@Param("ids") List<String> ids);
}
