-- The schema the release before migrations made with create_all (commit 589f385), sqlite.
-- tests/test_web_schema.py builds a database from it, with games, and upgrades it.

CREATE TABLE claims (
	name VARCHAR(200) NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	until DATETIME NOT NULL, 
	PRIMARY KEY (name)
);

CREATE TABLE puzzles (
	id INTEGER NOT NULL, 
	"key" VARCHAR(64) NOT NULL, 
	code TEXT NOT NULL, 
	shape VARCHAR(40) NOT NULL, 
	size INTEGER, 
	adjacency VARCHAR(8) NOT NULL, 
	difficulty VARCHAR(16), 
	grade TEXT, 
	puzzle TEXT NOT NULL, 
	solution TEXT NOT NULL, 
	seed BIGINT, 
	created DATETIME NOT NULL, 
	pooled BOOLEAN NOT NULL, 
	daily DATE, 
	PRIMARY KEY (id), 
	UNIQUE ("key"), 
	UNIQUE (daily)
);

CREATE INDEX ix_puzzles_pooled ON puzzles (pooled);

CREATE TABLE rate_limits (
	client VARCHAR(64) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	window BIGINT NOT NULL, 
	hits INTEGER NOT NULL, 
	PRIMARY KEY (client, kind, window)
);

CREATE TABLE tickets (
	ticket VARCHAR(32) NOT NULL, 
	kind VARCHAR(16) NOT NULL, 
	request TEXT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	result TEXT, 
	created DATETIME NOT NULL, 
	deadline DATETIME NOT NULL, 
	PRIMARY KEY (ticket)
);

CREATE INDEX ix_tickets_created ON tickets (created);

CREATE TABLE progress (
	id INTEGER NOT NULL, 
	player VARCHAR(64) NOT NULL, 
	puzzle_id INTEGER NOT NULL, 
	entries TEXT NOT NULL, 
	history TEXT NOT NULL, 
	undo_pos INTEGER NOT NULL, 
	mistakes INTEGER NOT NULL, 
	elapsed FLOAT NOT NULL, 
	clock_started DATETIME, 
	paused BOOLEAN NOT NULL, 
	last_activity DATETIME, 
	started DATETIME NOT NULL, 
	updated DATETIME NOT NULL, 
	solved_at DATETIME, 
	revealed BOOLEAN NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (player, puzzle_id), 
	FOREIGN KEY(puzzle_id) REFERENCES puzzles (id)
);

CREATE INDEX ix_progress_player ON progress (player);

CREATE INDEX ix_progress_puzzle_id ON progress (puzzle_id);
