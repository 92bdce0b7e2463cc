package dev.detour.adapter.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
    /**
     * D-1: how long any database call may take, so no thread hangs on a frozen or unreachable server.
     * Acquiring a pooled connection waits at most {@link #ACQUIRE}; opening a TCP connection at most
     * {@link #CONNECT}; a statement runs at most {@link #STATEMENT} (MariaDB's max_statement_time, the
     * server cancels it) and a read from the socket waits at most {@link #SOCKET} (the driver gives up
     * when the server does not answer at all, e.g. a SIGSTOPped mariadbd). The statement bound is
     * generous for the console's largest report; no request thread waits on any of these (D-1).
     */
    public static final Duration ACQUIRE = Duration.ofSeconds(3);
    public static final Duration CONNECT = Duration.ofSeconds(3);
    public static final Duration STATEMENT = Duration.ofSeconds(25);
    public static final Duration SOCKET = Duration.ofSeconds(30);

    /**
     * Every mapper, by name (N-6): MyBatis's package scan reads a fat jar through a {@code JarInputStream},
     * inflating every entry of the 170 MB jar (the embedded MariaDB's binaries included), 1.5-2 s of each start.
     * {@code DatabaseMappersTest} checks this list against the package's {@code *Mapper} interfaces.
     */
    static final List<Class<?>> MAPPERS = List.of(AccountMapper.class, AdminTokenMapper.class,
            AdminUserMapper.class, AlertMapper.class, AuditMapper.class, BatchTestMapper.class,
            ConsoleAccountMapper.class, EventMapper.class, GroupMapper.class, InstanceMapper.class,
            KeyLimitMapper.class, KeyMapper.class, LoadMapper.class, NameMapper.class, PoolStateMapper.class,
            RecoveryMapper.class, SettingsMapper.class, SmartMapper.class, StatsMapper.class, UsageMapper.class);

    private final HikariDataSource dataSource;
    private final SqlSessionFactory sessions;
    private final String migrationUrl;
    private final String user;
    private final String password;
    private volatile boolean migrated;

    private Database(HikariDataSource dataSource, String migrationUrl, String user, String password) {
        this.dataSource = dataSource;
        this.migrationUrl = migrationUrl;
        this.user = user;
        this.password = password;
        Configuration configuration = new Configuration(
                new Environment("detour", new JdbcTransactionFactory(), dataSource));
        configuration.setMapUnderscoreToCamelCase(true);
        // rows are records: match columns to constructor parameters by name (compiled with -parameters)
        configuration.setArgNameBasedConstructorAutoMapping(true);
        configuration.getTypeHandlerRegistry().register(Instant.class, UtcInstantTypeHandler.class);
        MAPPERS.forEach(configuration::addMapper);
        this.sessions = new SqlSessionFactoryBuilder().build(configuration);
    }

    public static Database connect(String url, String user, String password, int maxPoolSize) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(bounded(url));
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
        config.setConnectionTimeout(ACQUIRE.toMillis()); // D-1: pool acquire (Hikari's default is 30 s)
        config.setValidationTimeout(Duration.ofSeconds(1).toMillis());
        return new Database(new HikariDataSource(config), url, user, password);
    }

    /** The URL with D-1's driver bounds appended (connect, socket read, statement), unless the URL sets them. */
    static String bounded(String url) {
        StringBuilder out = new StringBuilder(url);
        char separator = url.contains("?") ? '&' : '?';
        String lower = url.toLowerCase(java.util.Locale.ROOT);
        if (!lower.contains("connecttimeout=")) {
            out.append(separator).append("connectTimeout=").append(CONNECT.toMillis());
            separator = '&';
        }
        if (!lower.contains("sockettimeout=")) {
            out.append(separator).append("socketTimeout=").append(SOCKET.toMillis());
            separator = '&';
        }
        if (!lower.contains("max_statement_time")) {
            out.append(separator).append("sessionVariables=max_statement_time=").append(STATEMENT.toSeconds());
            separator = '&';
        }
        int hosts = hostCount(url);
        if (hosts > 1 && !lower.contains("retriesalldown=")) {
            // G-5 / D-1: with every host of a multi-host (Galera) URL down, the driver's default of 120 attempts
            // (a pause between rounds) kept each database call, /readyz's check included, for 30 s and more;
            // one attempt per host, each bounded by the connect timeout, finds a live node or fails fast
            out.append(separator).append("retriesAllDown=").append(hosts);
        }
        return out.toString();
    }

    /** How many hosts {@code jdbc:mariadb[:mode]://h1,h2,…/db} lists. */
    private static int hostCount(String url) {
        int start = url.indexOf("//");
        if (start < 0) {
            return 1;
        }
        int end = url.indexOf('/', start + 2);
        String hosts = url.substring(start + 2, end < 0 ? url.length() : end);
        return hosts.split(",", -1).length;
    }

    /**
     * Applies the migrations of the top-level sql/ folder (packaged as db/migration), one instance at a time
     * (G-4: several instances starting together on a new version run each migration once, the others wait).
     */
    public void migrate() {
        // a migration may rewrite a large table: its own connection, without D-1's statement bound
        new MigrationLock(migrationUrl, user, password).around(() -> Flyway.configure()
                .dataSource(migrationUrl, user, password)
                .locations("classpath:db/migration")
                // the lock's table makes a new schema non-empty: Flyway starts its history below V1 there
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate());
    }

    /** True when the database answers and every known migration is applied (O-2 readiness). */
    public boolean ready() {
        try {
            ping();
        } catch (SQLException | RuntimeException e) {
            return false;
        }
        return migrationsApplied();
    }

    /**
     * Every known migration is applied. Checked until it first holds, then remembered: this process
     * migrated at start, and Flyway's history query should not run on every /readyz (D-1: bounded).
     */
    public boolean migrationsApplied() {
        if (migrated) {
            return true;
        }
        try {
            migrated = Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load()
                    .info().pending().length == 0;
        } catch (RuntimeException e) {
            return false;
        }
        return migrated;
    }

    /** D-1: one round trip within a second (the pool's acquire bound applies first); throws when none. */
    public void ping() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!c.isValid(1)) {
                throw new java.sql.SQLTransientConnectionException("the database did not answer a ping within 1 s");
            }
        }
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /**
     * One unit of work, run again when it lost a conflict (G-4: deadlock, Galera certification failure).
     * D-1: throws {@link dev.detour.gateway.port.DatabaseUnavailable} when the database did not answer.
     */
    public <T> T inTransaction(Function<SqlSession, T> work) {
        try {
            return TransactionRetry.run(() -> {
                try (SqlSession session = sessions.openSession(false)) {
                    T result = work.apply(session);
                    session.commit();
                    return result;
                }
            });
        } catch (RuntimeException e) {
            throw DatabaseErrors.translated(e);
        }
    }

    /**
     * Auto-commit session for single statements and reads.
     * D-1: throws {@link dev.detour.gateway.port.DatabaseUnavailable} when the database did not answer.
     */
    public <T> T read(Function<SqlSession, T> work) {
        try (SqlSession session = sessions.openSession(true)) {
            return work.apply(session);
        } catch (RuntimeException e) {
            throw DatabaseErrors.translated(e);
        }
    }

    @Override
    public void close() {
        dataSource.close();
    }
}
