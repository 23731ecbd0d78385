#!/bin/sh
# A backup of Houserules' database into BACKUP_DIR, then the backups there older than
# BACKUP_KEEP_DAYS deleted. With --loop: again every BACKUP_EVERY_SECONDS (the compose `backup`
# service runs it so). POSIX sh: runs in the postgres image and on any host.
#
#   PostgreSQL (PGHOST set; PGPORT, PGUSER, PGPASSWORD, PGDATABASE as libpq reads them):
#     a custom-format dump, `houserules-<UTC time>.dump` (restore with pg_restore; README, "Backups").
#   SQLite (PGHOST unset): SQLITE_PATH, by default $HOUSERULES_DATA_DIR/houserules.sqlite3 (./data),
#     copied with SQLite's online backup while the server runs, `houserules-<UTC time>.sqlite3`.
#
# A backup is written under a temporary name and renamed when complete, so a failed or interrupted
# run never leaves a file that looks like a backup, and retention counts only complete ones.
set -eu

BACKUP_DIR=${BACKUP_DIR:-./backups}
BACKUP_KEEP_DAYS=${BACKUP_KEEP_DAYS:-14}
BACKUP_EVERY_SECONDS=${BACKUP_EVERY_SECONDS:-86400}

backup_once() {
	mkdir -p "$BACKUP_DIR"
	stamp=$(date -u +%Y%m%dT%H%M%SZ)
	if [ -n "${PGHOST:-}" ]; then
		target="$BACKUP_DIR/houserules-$stamp.dump"
		pg_dump --format=custom --no-owner --file="$target.partial"
	else
		source=${SQLITE_PATH:-${HOUSERULES_DATA_DIR:-./data}/houserules.sqlite3}
		[ -f "$source" ] || { echo "backup: no SQLite database at $source" >&2; return 1; }
		target="$BACKUP_DIR/houserules-$stamp.sqlite3"
		python3 -c 'import sqlite3, sys
source = sqlite3.connect(sys.argv[1])
target = sqlite3.connect(sys.argv[2])
with target:
    source.backup(target)
target.close()
source.close()' "$source" "$target.partial"
	fi
	mv "$target.partial" "$target"
	echo "backup: wrote $target"
	# Retention: complete backups last modified more than BACKUP_KEEP_DAYS days ago (0 keeps all).
	if [ "$BACKUP_KEEP_DAYS" -gt 0 ]; then
		find "$BACKUP_DIR" -maxdepth 1 -type f \( -name 'houserules-*.dump' -o -name 'houserules-*.sqlite3' \) \
			-mtime +"$((BACKUP_KEEP_DAYS - 1))" -print -exec rm -f {} \; | sed 's/^/backup: deleted /'
	fi
}

if [ "${1:-}" = "--loop" ]; then
	while true; do
		# A failed run is reported and retried at the next turn, without ending the service.
		backup_once || echo "backup: failed" >&2
		sleep "$BACKUP_EVERY_SECONDS"
	done
else
	backup_once
fi
