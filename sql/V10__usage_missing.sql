-- P-7' (issue 18): a relayed stream that ended (completed, cut or cancelled) before any usage frame
-- arrived has an unknown cost, not a zero one; the request log shows which events those are.
ALTER TABLE request_events ADD COLUMN usage_missing BOOLEAN NOT NULL DEFAULT FALSE;
