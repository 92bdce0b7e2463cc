-- B-5: what an account's upstream gets of the client's anthropic-beta header, as JSON
-- {"mode":"pass"|"strip"|"strip_all","flags":[...]}; NULL is the default, pass (as sent).
ALTER TABLE accounts ADD COLUMN anthropic_beta_json TEXT NULL;
