-- What the last release before migrations (commit 4ffa869) added to v0-postgresql.sql with create_all:
-- the unplayable table. tests/test_web_schema.py builds v0, then this, and upgrades the result.

CREATE TABLE unplayable (
	key VARCHAR(64) NOT NULL, 
	message TEXT NOT NULL, 
	created TIMESTAMP WITHOUT TIME ZONE NOT NULL, 
	PRIMARY KEY (key)
);
