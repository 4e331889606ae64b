#!/usr/bin/env bash
# A private PostgreSQL server for trying the PostgreSQL store, in a directory
# of its own: the cluster in DIR/data, its log in DIR/server.log, and a Unix
# socket in DIR only (no TCP port, so it is nobody else's business and two of
# them do not collide). Logging in over that socket needs no password.
#
#   scripts/dev-postgres.sh start DIR [USER [DATABASE]]   # prints the settings lines
#   scripts/dev-postgres.sh stop DIR                      # rm -rf DIR removes the rest
#
# USER and DATABASE default to fix. Starting again after a stop keeps what
# the database holds. Run as root, the cluster belongs to the `postgres`
# user, because initdb refuses to run as root.
set -euo pipefail

usage() {
    sed -n 's/^#   //p' "$0" >&2
    exit 2
}

# initdb and pg_ctl: beside initdb on PATH, else the newest of Debian's
# /usr/lib/postgresql/*/bin (not on PATH there).
bin_dir() {
    if command -v initdb >/dev/null 2>&1; then
        dirname "$(readlink -f "$(command -v initdb)")"
        return
    fi
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [ -z "$found" ] || [ ! -x "$found/initdb" ]; then
        echo "dev-postgres: PostgreSQL's server binaries (initdb, pg_ctl) are not installed;" \
            "on Debian or Ubuntu: apt-get install postgresql" >&2
        exit 1
    fi
    echo "$found"
}

# Runs a server tool as the cluster's owner: postgres when we are root.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    local dir=$1 user=${2:-fix} database=${3:-fix}
    local bin
    bin=$(bin_dir)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    # A Unix socket's path is limited to about 107 bytes.
    if [ ${#dir} -gt 90 ]; then
        echo "dev-postgres: $dir is too long for a socket path: choose a shorter directory" >&2
        exit 1
    fi
    if [ "$(id -u)" = 0 ]; then
        chown postgres: "$dir"
        if ! runuser -u postgres -- test -w "$dir"; then
            echo "dev-postgres: the postgres user cannot reach $dir (a parent is private):" \
                "choose a directory under /tmp or /var/tmp" >&2
            exit 1
        fi
    fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres >"$dir/initdb.log" 2>&1 ||
            { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
            -o "-k $dir -c listen_addresses=''" start >/dev/null ||
            { tail -n 20 "$dir/server.log" >&2; exit 1; }
    fi
    local psql=("$bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h "$dir" -U postgres -d postgres)
    # The role may make the store's tables in its own database on first open.
    if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_roles WHERE rolname = '$user'")" ]; then
        "${psql[@]}" -c "CREATE ROLE \"$user\" LOGIN"
    fi
    if [ -z "$("${psql[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$database'")" ]; then
        "${psql[@]}" -c "CREATE DATABASE \"$database\" OWNER \"$user\""
    fi
    cat <<EOF
# PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}') is running in $dir (Unix socket only, no password).
# Paste into the settings file, [DEFAULT] or a [SESSION]:
PostgreSQLStoreHost=$dir
PostgreSQLStorePort=5432
PostgreSQLStoreUser=$user
PostgreSQLStoreDatabase=$database
# (or, in one line: PostgreSQLStoreConnection=host=$dir port=5432 user=$user dbname=$database)
# Check:  fixcfg check --connect SETTINGS
# Stop:   $0 stop $dir    (then rm -rf $dir to remove it all)
EOF
}

stop() {
    local dir=$1 bin
    bin=$(bin_dir)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    echo "# stopped the PostgreSQL server in $dir"
}

case "${1:-}" in
    start) [ $# -ge 2 ] && [ $# -le 4 ] || usage; start "${@:2}" ;;
    stop) [ $# -eq 2 ] || usage; stop "$2" ;;
    *) usage ;;
esac
