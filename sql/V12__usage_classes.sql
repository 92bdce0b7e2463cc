-- B-4: usage normalised across protocols. input_tokens excludes cached tokens, output_tokens includes
-- reasoning; the old cache_write_tokens column holds the 5 min cache writes, the 1 h ones get a column of
-- their own because they are priced apart. client_protocol is the endpoint the client called (the same
-- value as endpoint, so it is computed rather than stored twice); upstream_protocol is the protocol the
-- last account was asked in (NULL when no account was asked, and for events logged before this version).
ALTER TABLE request_events
  ADD COLUMN cache_write_1h_tokens BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN reasoning_tokens BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN client_protocol VARCHAR(32) AS (endpoint) VIRTUAL,
  ADD COLUMN upstream_protocol VARCHAR(32) NULL;

-- B-4: per-class prices, micros per million tokens; NULL = the documented default (docs/api.md):
-- cache read at the input price, cache write 5 min at 1.25× and 1 h at 2× the input price.
ALTER TABLE model_prices
  ADD COLUMN cache_read_micros_per_m BIGINT NULL,
  ADD COLUMN cache_write_5m_micros_per_m BIGINT NULL,
  ADD COLUMN cache_write_1h_micros_per_m BIGINT NULL;
