-- G-2 instance registry: every running Detour instance refreshes its own row on a heartbeat
-- (every 5 s) and deletes it at an orderly stop. A row not refreshed for three periods counts
-- as gone; the live rows set each instance's share of an account's max_in_flight. Rows unseen
-- for a day are forgotten. One row per instance: no two instances write the same row, so the
-- heartbeats never conflict on Galera.
CREATE TABLE detour_instances (
  id            VARCHAR(64)  NOT NULL PRIMARY KEY,
  address       VARCHAR(255) NOT NULL,
  version       VARCHAR(64)  NOT NULL,
  started_at    DATETIME(3)  NOT NULL,
  last_seen_at  DATETIME(3)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
