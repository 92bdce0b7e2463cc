-- SPEC §12 C-4': the end of a model row's cooldown that the upstream itself stated on a 429 (Retry-After or a
-- reset hint, capped). Inside it the route is never called, not even by the S-2 probe fallback; a cooldown
-- without it is Detour's own policy window. Existing rows have none (NULL): their windows stay Detour's own.
ALTER TABLE account_models ADD COLUMN stated_until DATETIME(3) NULL;
