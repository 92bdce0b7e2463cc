-- D-1 (issue 19): a failure or success the gateway applied in memory is written to the database
-- later when the database was away, and a write whose commit was not confirmed is retried. Each
-- such write carries an id; the id is stored in the same transaction, so a retry of a write that
-- did commit changes nothing twice. Ids older than a day are forgotten.
CREATE TABLE applied_state_writes (
  write_id    CHAR(36)     NOT NULL PRIMARY KEY,
  applied_at  DATETIME(3)  NOT NULL,
  KEY ix_applied_state_writes_applied (applied_at)
);
