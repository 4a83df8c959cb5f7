#!/usr/bin/env bash
# Run a command beside a throw-away PostgreSQL server, then stop the server and delete it.
#
#   tools/with_postgres.sh .venv/bin/python -m pytest
#
# The cluster lives in a new temporary folder and listens only on a Unix socket there (no
# TCP port to collide with); HIDATO_TEST_POSTGRES_URL names it for the command. It is
# stopped and deleted when the command ends, however it ends. The command's exit status
# is this script's. Needs Debian's postgresql package (make test installs it).
set -euo pipefail

if [ "$#" -eq 0 ]; then
    echo "usage: $0 COMMAND [ARG...]" >&2
    exit 2
fi

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "with_postgres: PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb):" \
         "apt-get install -y postgresql (make test does this)" >&2
    exit 1
fi

# PostgreSQL refuses to run as root: as root, the server runs as the postgres user.
run_as=()
if [ "$(id -u)" -eq 0 ]; then
    user=postgres
    id -u "$user" >/dev/null 2>&1 || user=nobody
    run_as=(runuser -u "$user" --)
fi

if [ "${#run_as[@]}" -gt 0 ]; then
    # In /tmp, not $TMPDIR: the server's user must be able to reach the folder.
    dir=$(mktemp -d /tmp/hidato-pg.XXXXXX)
    chown "$user" "$dir"
else
    dir=$(mktemp -d "${TMPDIR:-/tmp}/hidato-pg.XXXXXX")
fi
chmod 700 "$dir"

stop() {
    "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${run_as[@]}" "$bin/initdb" -D "$dir/data" -U hidato --auth=trust -E UTF8 --locale=C.UTF-8 -N \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
# Enough connections for several server processes at once. Throw-away data for the tests:
# no fsync. HIDATO_PG_DURABLE=1 (make load) keeps PostgreSQL's durable defaults, so the
# figures measured are those of a real server.
options="-k $dir -c listen_addresses= -c max_connections=300"
if [ "${HIDATO_PG_DURABLE:-0}" != "1" ]; then
    options="$options -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
fi
if ! "${run_as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o "$options" \
        start >/dev/null; then
    echo "with_postgres: the server did not start:" >&2
    cat "$dir/server.log" >&2
    exit 1
fi
"$bin/createdb" -h "$dir" -U hidato hidato

export HIDATO_TEST_POSTGRES_URL="postgresql+psycopg://hidato@/hidato?host=$dir"
durability="fsync off"
[ "${HIDATO_PG_DURABLE:-0}" = "1" ] && durability="durable: fsync, synchronous_commit and full_page_writes on"
echo "with_postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on $dir ($durability; HIDATO_TEST_POSTGRES_URL)" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
