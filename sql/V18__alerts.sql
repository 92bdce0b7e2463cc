-- W-1 alerts. A channel says where alerts go (a webhook format or email), which events it takes
-- and how long an (event, object) pair stays quiet after it was sent. Its secrets (webhook URLs
-- carrying tokens, bot tokens, signing secrets, the SMTP password) are sealed like upstream keys
-- (AES-GCM under the master key, bound to the channel) in secrets_sealed; secret_hints holds only
-- their masked tails for pages and the API.
CREATE TABLE alert_channels (
  id               BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name             VARCHAR(100) NOT NULL,
  kind             VARCHAR(20)  NOT NULL,
  enabled          TINYINT(1)   NOT NULL DEFAULT 1,
  events           VARCHAR(1000) NOT NULL DEFAULT '',
  suppress_seconds INT          NOT NULL DEFAULT 600,
  settings_json    TEXT         NULL,
  secrets_sealed   TEXT         NULL,
  secret_hints     VARCHAR(1000) NULL,
  created_at       DATETIME(3)  NOT NULL,
  updated_at       DATETIME(3)  NOT NULL,
  UNIQUE KEY uq_alert_channels_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- W-1 delivery log: one row per (channel, alert) sent or being retried, so retries survive a
-- restart. status: pending (next_retry_at says when), sent, failed (attempts used up). Rows of a
-- deleted channel stay (channel_name keeps what it was called).
CREATE TABLE alert_deliveries (
  id             BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  channel_id     BIGINT        NOT NULL,
  channel_name   VARCHAR(100)  NOT NULL,
  event          VARCHAR(40)   NOT NULL,
  object         VARCHAR(200)  NOT NULL,
  title          VARCHAR(300)  NOT NULL,
  body           TEXT          NOT NULL,
  occurred_at    DATETIME(3)   NOT NULL,
  attempts       INT           NOT NULL DEFAULT 0,
  status         VARCHAR(10)   NOT NULL,
  http_status    INT           NULL,
  error          VARCHAR(500)  NULL,
  next_retry_at  DATETIME(3)   NULL,
  created_at     DATETIME(3)   NOT NULL,
  updated_at     DATETIME(3)   NOT NULL,
  KEY ix_alert_deliveries_due (status, next_retry_at),
  KEY ix_alert_deliveries_created (created_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
