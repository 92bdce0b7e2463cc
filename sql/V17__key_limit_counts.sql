-- L-1 / L-4 per-key limits counted once for the cluster: each instance adds what it counted (requests,
-- tokens, spend micros) to the bucket of its window about once a second and reads every bucket back on
-- the same beat. kind is the limit's header suffix (requests, tokens, spend-5h, spend-day, spend-week,
-- spend-month); bucket is epoch seconds / the window's step (window / 60). Buckets that left their window
-- are deleted once a minute. No foreign key: a deleted key's buckets simply age out.
CREATE TABLE key_limit_counts (
  key_id  BIGINT      NOT NULL,
  kind    VARCHAR(16) NOT NULL,
  bucket  BIGINT      NOT NULL,
  amount  BIGINT      NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, kind, bucket),
  KEY key_limit_counts_age (kind, bucket)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
