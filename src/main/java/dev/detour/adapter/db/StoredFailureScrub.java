package dev.detour.adapter.db;

import dev.detour.adapter.crypto.SecretBox;
import dev.detour.core.secret.SecretMask;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * X-5 for data written before masking existed: at start, the last failure texts of accounts and model
 * rows are masked with the account's own key (and token shapes), like new failures are. Idempotent:
 * masked text does not change again, so a restart or a second instance writes nothing.
 */
public final class StoredFailureScrub {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(StoredFailureScrub.class);
    private static final String ACCOUNTS = "SELECT id, api_key_cipher, last_failure_message, last_failure_response_json"
            + " FROM accounts WHERE last_failure_message IS NOT NULL OR last_failure_response_json IS NOT NULL";
    private static final String MODELS = "SELECT m.account_id, a.api_key_cipher, m.last_failure_message,"
            + " m.last_failure_response_json, m.model_key FROM account_models m JOIN accounts a ON a.id = m.account_id"
            + " WHERE m.last_failure_message IS NOT NULL OR m.last_failure_response_json IS NOT NULL";
    private static final String UPDATE_ACCOUNT = "UPDATE accounts SET last_failure_message = ?,"
            + " last_failure_response_json = ? WHERE id = ?";
    private static final String UPDATE_MODEL = "UPDATE account_models SET last_failure_message = ?,"
            + " last_failure_response_json = ? WHERE account_id = ? AND model_key = ?";

    private StoredFailureScrub() {
    }

    /** Masks what needs it; returns how many rows changed. */
    public static int run(DataSource dataSource, SecretBox box) {
        try (Connection c = dataSource.getConnection()) {
            int changed = scrub(c, box, MODELS, UPDATE_MODEL, true) + scrub(c, box, ACCOUNTS, UPDATE_ACCOUNT, false);
            if (changed > 0) {
                log.info("masked secrets in {} stored failure message(s) written before X-5", changed);
            }
            return changed;
        } catch (SQLException e) {
            throw new IllegalStateException("stored failure texts could not be masked", e);
        }
    }

    private static int scrub(Connection c, SecretBox box, String select, String update, boolean modelRows)
            throws SQLException {
        int changed = 0;
        try (PreparedStatement read = c.prepareStatement(select); ResultSet rs = read.executeQuery();
                PreparedStatement write = c.prepareStatement(update)) {
            while (rs.next()) {
                long accountId = rs.getLong(1);
                SecretMask mask = SecretMask.knowing(key(box, rs.getString(2), accountId));
                String message = rs.getString(3);
                String body = rs.getString(4);
                String maskedMessage = mask.apply(message);
                String maskedBody = mask.apply(body);
                if (Objects.equals(message, maskedMessage) && Objects.equals(body, maskedBody)) {
                    continue;
                }
                write.setString(1, maskedMessage);
                write.setString(2, maskedBody);
                write.setLong(3, accountId);
                if (modelRows) {
                    write.setString(4, rs.getString(5));
                }
                changed += write.executeUpdate();
            }
        }
        return changed;
    }

    /** The account's key; none when it cannot be opened (then token shapes are still masked). */
    private static List<String> key(SecretBox box, String cipher, long accountId) {
        try {
            return cipher == null ? List.of() : List.of(box.open(cipher, accountId));
        } catch (RuntimeException e) {
            return List.of();
        }
    }
}
