-- U-9: a key holder's usage over a window (/my) reads only that key's rows in time order
CREATE INDEX ix_request_events_key_created ON request_events (key_id, created_at);
