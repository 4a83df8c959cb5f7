-- What the last release before migrations (commit 4ffa869) added to v0-sqlite.sql with create_all:
-- the unplayable table. tests/test_web_schema.py builds v0, then this, and upgrades the result.

CREATE TABLE unplayable (
	"key" VARCHAR(64) NOT NULL, 
	message TEXT NOT NULL, 
	created DATETIME NOT NULL, 
	PRIMARY KEY ("key")
);
