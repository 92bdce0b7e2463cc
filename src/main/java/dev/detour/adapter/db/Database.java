package dev.detour.adapter.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.Function;
import javax.sql.DataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.Configuration;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.session.SqlSessionFactoryBuilder;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;
import org.flywaydb.core.Flyway;

/**
 * The one connection pool, the Flyway migration and the one {@link SqlSessionFactory}.
 * {@link #inTransaction} is the unit-of-work helper: one session, committed or rolled back.
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final SqlSessionFactory sessions;

    private Database(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        Configuration configuration = new Configuration(
                new Environment("detour", new JdbcTransactionFactory(), dataSource));
        configuration.setMapUnderscoreToCamelCase(true);
        // rows are records: match columns to constructor parameters by name (compiled with -parameters)
        configuration.setArgNameBasedConstructorAutoMapping(true);
        configuration.getTypeHandlerRegistry().register(Instant.class, UtcInstantTypeHandler.class);
        configuration.addMappers("dev.detour.adapter.db");
        this.sessions = new SqlSessionFactoryBuilder().build(configuration);
    }

    public static Database connect(String url, String user, String password, int maxPoolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        if (user != null) {
            config.setUsername(user);
        }
        if (password != null) {
            config.setPassword(password);
        }
        config.setMaximumPoolSize(maxPoolSize);
        config.setPoolName("detour-db");
        config.setAutoCommit(true);
        config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        return new Database(new HikariDataSource(config));
    }

    /** Applies the migrations of the top-level sql/ folder (packaged as db/migration). */
    public void migrate() {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
    }

    /** True when the database answers and every known migration is applied (O-2 readiness). */
    public boolean ready() {
        try (Connection c = dataSource.getConnection()) {
            if (!c.isValid(2)) {
                return false;
            }
            return Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load()
                    .info().pending().length == 0;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    public DataSource dataSource() {
        return dataSource;
    }

    public <T> T inTransaction(Function<SqlSession, T> work) {
        try (SqlSession session = sessions.openSession(false)) {
            T result = work.apply(session);
            session.commit();
            return result;
        }
    }

    /** Auto-commit session for single statements and reads. */
    public <T> T read(Function<SqlSession, T> work) {
        try (SqlSession session = sessions.openSession(true)) {
            return work.apply(session);
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
