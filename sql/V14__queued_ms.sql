-- L-2: how long a request waited in the queue for a route below its in-flight limit (NULL: it never
-- waited); the request log and the explanation show it, /metrics has its histogram.
ALTER TABLE request_events ADD COLUMN queued_ms INT NULL;
