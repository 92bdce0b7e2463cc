-- Detour schema, SPEC §1. Times are UTC DATETIME(3); money in micro-units of the site currency.

CREATE TABLE groups_ (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name          VARCHAR(64)  NOT NULL,
  ratio_ppm     BIGINT       NOT NULL DEFAULT 1000000,
  color         VARCHAR(16)  NOT NULL DEFAULT '#64748b',
  halt_policy   VARCHAR(16)  NOT NULL DEFAULT 'off',
  halted_until  DATETIME(3)  NULL,
  halt_streak   INT          NOT NULL DEFAULT 0,
  halt_reason   VARCHAR(32)  NULL,
  created_at    DATETIME(3)  NOT NULL,
  updated_at    DATETIME(3)  NOT NULL,
  UNIQUE KEY uk_groups_name (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE accounts (
  id                                  BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name                                VARCHAR(128)  NOT NULL,
  group_id                            BIGINT        NOT NULL,
  platform                            VARCHAR(32)   NOT NULL,
  base_url                            VARCHAR(512)  NOT NULL,
  api_key_cipher                      VARCHAR(2048) NOT NULL,
  api_key_hint                        VARCHAR(32)   NOT NULL,
  model_mappings_json                 TEXT          NOT NULL,
  endpoint_families                   VARCHAR(255)  NULL,
  priority                            INT           NOT NULL DEFAULT 0,
  weight                              INT           NOT NULL DEFAULT 10,
  enabled                             BOOLEAN       NOT NULL DEFAULT TRUE,
  archived                            BOOLEAN       NOT NULL DEFAULT FALSE,
  status                              VARCHAR(16)   NOT NULL DEFAULT 'ok',
  quota_remaining                     BIGINT        NULL,
  max_in_flight                       INT           NOT NULL DEFAULT 0,
  failure_policy_json                 TEXT          NULL,
  recovery_json                       TEXT          NULL,
  breaker_json                        TEXT          NULL,
  backoff_json                        TEXT          NULL,
  notes                               TEXT          NULL,
  -- account-level failure state (seed: ai-switch-reliability)
  transient_failure_count             INT           NOT NULL DEFAULT 0,
  next_retry_at                       DATETIME(3)   NULL,
  cooldown_until                      DATETIME(3)   NULL,
  last_failure_kind                   VARCHAR(48)   NULL,
  last_failure_message                VARCHAR(1024) NULL,
  last_failure_response_json          TEXT          NULL,
  semantic_failure_streak_count       INT           NOT NULL DEFAULT 0,
  semantic_failure_streak_fingerprint VARCHAR(80)   NULL,
  -- C-6 breaker / exponential backoff, persisted across restarts
  breaker_failure_streak              INT           NOT NULL DEFAULT 0,
  breaker_step                        INT           NOT NULL DEFAULT 0,
  breaker_open_until                  DATETIME(3)   NULL,
  backoff_streak                      INT           NOT NULL DEFAULT 0,
  success_count                       BIGINT        NOT NULL DEFAULT 0,
  error_count                         BIGINT        NOT NULL DEFAULT 0,
  last_used_at                        DATETIME(3)   NULL,
  revision                            BIGINT        NOT NULL DEFAULT 0,
  created_at                          DATETIME(3)   NOT NULL,
  updated_at                          DATETIME(3)   NOT NULL,
  UNIQUE KEY uk_accounts_name (name),
  KEY ix_accounts_pool (enabled, archived, status, priority),
  KEY ix_accounts_group (group_id),
  KEY ix_accounts_revision (revision),
  CONSTRAINT fk_accounts_group FOREIGN KEY (group_id) REFERENCES groups_ (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- one row per (account, model_key); created on first failure or manual pause, deleted on success
CREATE TABLE account_models (
  account_id                          BIGINT        NOT NULL,
  model_key                           VARCHAR(191)  NOT NULL,
  status                              VARCHAR(16)   NOT NULL DEFAULT 'ok',
  transient_failure_count             INT           NOT NULL DEFAULT 0,
  cooldown_until                      DATETIME(3)   NULL,
  rate_limit_reset_at                 DATETIME(3)   NULL,
  semantic_failure_streak_count       INT           NOT NULL DEFAULT 0,
  semantic_failure_streak_fingerprint VARCHAR(80)   NULL,
  last_failure_kind                   VARCHAR(48)   NULL,
  last_failure_message                VARCHAR(1024) NULL,
  last_failure_response_json          TEXT          NULL,
  created_at                          DATETIME(3)   NOT NULL,
  updated_at                          DATETIME(3)   NOT NULL,
  PRIMARY KEY (account_id, model_key),
  KEY ix_account_models_updated (account_id, status, updated_at),
  CONSTRAINT fk_account_models_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE,
  CONSTRAINT ck_account_models_status CHECK (status IN ('ok', 'error', 'paused'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- model keys an account served recently: C-3 escalation denominator for pass-through accounts
CREATE TABLE account_served_models (
  account_id     BIGINT       NOT NULL,
  model_key      VARCHAR(191) NOT NULL,
  last_served_at DATETIME(3)  NOT NULL,
  PRIMARY KEY (account_id, model_key),
  CONSTRAINT fk_served_models_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE detour_keys (
  id                    BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name                  VARCHAR(128)  NOT NULL,
  owner_label           VARCHAR(128)  NULL,
  key_hash              CHAR(64)      NOT NULL,
  key_hint              VARCHAR(32)   NOT NULL,
  enabled               BOOLEAN       NOT NULL DEFAULT TRUE,
  expires_at            DATETIME(3)   NULL,
  policy_json           TEXT          NOT NULL,
  spent_micros          BIGINT        NOT NULL DEFAULT 0,
  revision              BIGINT        NOT NULL DEFAULT 0,
  created_at            DATETIME(3)   NOT NULL,
  updated_at            DATETIME(3)   NOT NULL,
  last_used_at          DATETIME(3)   NULL,
  UNIQUE KEY uk_detour_keys_hash (key_hash),
  KEY ix_detour_keys_revision (revision)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- the route receipt: one row per client request (N-4)
CREATE TABLE request_events (
  id                 BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  request_id         CHAR(26)      NOT NULL,
  key_id             BIGINT        NULL,
  endpoint           VARCHAR(32)   NOT NULL,
  requested_model    VARCHAR(191)  NULL,
  model_key          VARCHAR(191)  NULL,
  stream             BOOLEAN       NOT NULL DEFAULT FALSE,
  account_id         BIGINT        NULL,
  group_id           BIGINT        NULL,
  outcome            VARCHAR(16)   NOT NULL,
  status             INT           NOT NULL,
  error_code         VARCHAR(64)   NULL,
  reason_code        VARCHAR(48)   NULL,
  attempts_json      TEXT          NOT NULL,
  rejections_json    TEXT          NOT NULL,
  input_tokens       BIGINT        NOT NULL DEFAULT 0,
  output_tokens      BIGINT        NOT NULL DEFAULT 0,
  cache_read_tokens  BIGINT        NOT NULL DEFAULT 0,
  cache_write_tokens BIGINT        NOT NULL DEFAULT 0,
  cost_micros        BIGINT        NOT NULL DEFAULT 0,
  ttft_ms            INT           NULL,
  latency_ms         INT           NOT NULL,
  client_ip          VARCHAR(64)   NULL,
  created_at         DATETIME(3)   NOT NULL,
  UNIQUE KEY uk_request_events_request_id (request_id),
  -- keyset paging newest first, overall and per filter (U-5)
  KEY ix_request_events_created (created_at, id),
  KEY ix_request_events_key (key_id, id),
  KEY ix_request_events_account (account_id, id),
  KEY ix_request_events_model (requested_model, id),
  KEY ix_request_events_outcome (outcome, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE admin_users (
  id             BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  username       VARCHAR(64)  NOT NULL,
  password_hash  VARCHAR(255) NOT NULL,
  created_at     DATETIME(3)  NOT NULL,
  last_login_at  DATETIME(3)  NULL,
  UNIQUE KEY uk_admin_users_username (username)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE audit_log (
  id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  actor        VARCHAR(64)  NOT NULL,
  action       VARCHAR(64)  NOT NULL,
  target_type  VARCHAR(32)  NOT NULL,
  target_id    VARCHAR(64)  NULL,
  before_json  TEXT         NULL,
  after_json   TEXT         NULL,
  created_at   DATETIME(3)  NOT NULL,
  KEY ix_audit_log_created (created_at, id),
  KEY ix_audit_log_target (target_type, target_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE settings (
  name        VARCHAR(64)  NOT NULL PRIMARY KEY,
  value       VARCHAR(1024) NOT NULL,
  updated_at  DATETIME(3)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- R-5 leader lease: one row per lease name
CREATE TABLE leases (
  name        VARCHAR(64)  NOT NULL PRIMARY KEY,
  holder      VARCHAR(128) NOT NULL,
  expires_at  DATETIME(3)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- S-6 session stickiness, visible to every instance
CREATE TABLE session_bindings (
  key_id       BIGINT       NOT NULL,
  session_hash CHAR(64)     NOT NULL,
  model        VARCHAR(191) NOT NULL,
  account_id   BIGINT       NOT NULL,
  expires_at   DATETIME(3)  NOT NULL,
  PRIMARY KEY (key_id, session_hash, model),
  KEY ix_session_bindings_expires (expires_at),
  CONSTRAINT fk_session_bindings_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- P-10 response id → account for state-bound requests (24 h)
CREATE TABLE response_bindings (
  response_id  VARCHAR(191) NOT NULL PRIMARY KEY,
  account_id   BIGINT       NOT NULL,
  expires_at   DATETIME(3)  NOT NULL,
  KEY ix_response_bindings_expires (expires_at),
  CONSTRAINT fk_response_bindings_account FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- O-4 pool revision: bumped by every state write so other instances refresh their snapshot
CREATE TABLE pool_revision (
  id        TINYINT NOT NULL PRIMARY KEY,
  revision  BIGINT  NOT NULL
) ENGINE=InnoDB;
INSERT INTO pool_revision (id, revision) VALUES (1, 0);
