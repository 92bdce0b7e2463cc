-- W-3 batch model tests, stored so every instance shows a batch's live results and they survive a
-- restart. instance_id names the registry row (detour_instances, G-2) of the instance that runs the
-- batch: when that instance is gone, lines still pending or running read as interrupted. Only the
-- running instance writes a batch's rows (one line at a time, no conflicts on Galera); the newest
-- batches are kept, older ones deleted when a batch starts.
CREATE TABLE batch_tests (
  id           VARCHAR(32)  NOT NULL PRIMARY KEY,
  model        VARCHAR(200) NOT NULL,
  instance_id  VARCHAR(64)  NOT NULL,
  started_at   DATETIME(3)  NOT NULL,
  KEY ix_batch_tests_started (started_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One line per account asked, in the order asked. outcome: pending, running, passed, failed,
-- wrong_model, not_served, interrupted; the test's findings once it finished (null before).
CREATE TABLE batch_test_results (
  batch_id        VARCHAR(32)   NOT NULL,
  line            INT           NOT NULL,
  account_id      BIGINT        NOT NULL,
  account_name    VARCHAR(200)  NOT NULL,
  group_name      VARCHAR(200)  NULL,
  outcome         VARCHAR(20)   NOT NULL,
  tested          TINYINT(1)    NOT NULL DEFAULT 0,
  ok              TINYINT(1)    NOT NULL DEFAULT 0,
  latency_ms      BIGINT        NOT NULL DEFAULT 0,
  http_status     INT           NOT NULL DEFAULT 0,
  message         VARCHAR(1000) NULL,
  upstream_body   TEXT          NULL,
  endpoint        VARCHAR(200)  NULL,
  model           VARCHAR(200)  NULL,
  model_key       VARCHAR(200)  NULL,
  failure_kind    VARCHAR(64)   NULL,
  first_byte_ms   BIGINT        NULL,
  served_model    VARCHAR(200)  NULL,
  failure_class   VARCHAR(32)   NULL,
  updated_at      DATETIME(3)   NOT NULL,
  PRIMARY KEY (batch_id, line)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
