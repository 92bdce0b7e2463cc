-- Operating Detour (U-5): request-log filters by group and status page newest first on their own
-- index, like the key/account/model/outcome filters in V1.
CREATE INDEX ix_request_events_group ON request_events (group_id, id);
CREATE INDEX ix_request_events_status ON request_events (status, id);
