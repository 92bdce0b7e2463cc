package dev.detour.adapter.db;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.ibatis.type.BaseTypeHandler;
import org.apache.ibatis.type.JdbcType;

/** DATETIME columns hold UTC wall time: independent of the JVM's and the server's time zones. */
public final class UtcInstantTypeHandler extends BaseTypeHandler<Instant> {
    @Override
    public void setNonNullParameter(PreparedStatement ps, int i, Instant value, JdbcType type) throws SQLException {
        ps.setObject(i, LocalDateTime.ofInstant(value, ZoneOffset.UTC));
    }

    @Override
    public Instant getNullableResult(ResultSet rs, String column) throws SQLException {
        return toInstant(rs.getObject(column, LocalDateTime.class));
    }

    @Override
    public Instant getNullableResult(ResultSet rs, int index) throws SQLException {
        return toInstant(rs.getObject(index, LocalDateTime.class));
    }

    @Override
    public Instant getNullableResult(CallableStatement cs, int index) throws SQLException {
        return toInstant(cs.getObject(index, LocalDateTime.class));
    }

    private static Instant toInstant(LocalDateTime value) {
        return value == null ? null : value.toInstant(ZoneOffset.UTC);
    }
}
