-- W-1 alerts without gaps. alert_outbox: a pool alert (an account to error / revoked / back in service,
-- a model row to error, a group halt beginning) is inserted in the same transaction as the state change
-- it reports, so it exists exactly when the change is durable, whichever instance made it and whether
-- or not any instance led at the time. Any instance's alert thread moves rows to alert_deliveries and
-- deletes them in one transaction (rows locked), so the cluster fans each out once.
CREATE TABLE alert_outbox (
  id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  event        VARCHAR(40)  NOT NULL,
  object       VARCHAR(200) NOT NULL,
  title        VARCHAR(300) NOT NULL,
  body         TEXT         NOT NULL,
  occurred_at  DATETIME(3)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- W-1 suppression shared by the cluster: when an (event, object) was last given to a channel. The row
-- is locked while an instance decides, so two instances never both send inside one window. No foreign
-- key: a deleted channel's rows are harmless (its id is never reused).
CREATE TABLE alert_suppressions (
  channel_id    BIGINT       NOT NULL,
  event         VARCHAR(40)  NOT NULL,
  object        VARCHAR(200) NOT NULL,
  last_sent_at  DATETIME(3)  NULL,
  PRIMARY KEY (channel_id, event, object)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
