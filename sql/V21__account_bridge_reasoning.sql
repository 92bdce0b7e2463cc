-- B-6: whether the bridge sends reasoning parameters (Chat reasoning_effort, Responses reasoning, Messages
-- thinking) to this account when it translates a request; FALSE for a relay that refuses them. NULL = TRUE.
ALTER TABLE accounts ADD COLUMN bridge_reasoning BOOLEAN NULL;
