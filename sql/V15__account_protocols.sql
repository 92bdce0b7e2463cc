-- B-1: the client protocols an account serves natively (comma list of chat_completions, responses,
-- messages); NULL = its platform's default (and the conversational families its endpoint_families list).
ALTER TABLE accounts ADD COLUMN protocols VARCHAR(64) NULL;
