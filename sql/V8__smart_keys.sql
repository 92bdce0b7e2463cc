-- Smart keys (SPEC S-3, S-10, K-2): model base prices and admin block rules.

-- S-3 price: micros (of the site currency) per million tokens; a model without a row has an unknown price
CREATE TABLE model_prices (
  model                  VARCHAR(191) NOT NULL PRIMARY KEY,
  input_micros_per_m     BIGINT       NOT NULL,
  output_micros_per_m    BIGINT       NOT NULL,
  updated_at             DATETIME(3)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- S-10: never auto-recovered; a rule with expires_at simply stops applying then
CREATE TABLE block_rules (
  id           BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  scope        VARCHAR(16)   NOT NULL,
  value        VARCHAR(191)  NOT NULL,
  reason       VARCHAR(512)  NULL,
  operator     VARCHAR(64)   NULL,
  expires_at   DATETIME(3)   NULL,
  created_at   DATETIME(3)   NOT NULL,
  KEY ix_block_rules_expires (expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
