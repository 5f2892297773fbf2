#!/bin/sh
# Every row of a Tessera database as users see it, in a fixed order and
# without the columns that record wall-clock time and dates (runs.started_at,
# runs.wall_s, merged_runs): what scripts/determinism.sh and
# scripts/rows-identical.sh compare between two builds. Every table is
# listed, so a table added to the schema is compared without editing this
# file. Packed relations are dumped through their views (sm_accesses; events,
# simt_issue and simt_mem: tables before schema versions 9, 10 and 11, views
# of their packs and dictionaries since), not as their packs, so that two builds whose
# packing differs but whose rows are the same dump alike — and a file of an
# older version against one of the current. Usage: scripts/dump-rows.sh DB
set -eu
db=$1
sqlite3 "$db" "
  SELECT run_id, program, program_sha256, data_sha256, config, status, error, end_ps,
         events, version, level, period_ps, from_ps, to_ps, stop_ps FROM runs ORDER BY run_id;
  SELECT *, typeof(value) FROM params ORDER BY run_id, key;
  SELECT * FROM sm_accesses ORDER BY run_id, frame, core, idx;"
for table in $(sqlite3 "$db" "SELECT name FROM sqlite_master
                              WHERE (type = 'table' AND name NOT IN ('runs', 'params',
                                     'merged_runs', 'sm_access_packs', 'event_packs',
                                     'event_names', 'simt_issue_packs', 'simt_op_names',
                                     'simt_mem_packs')
                                     AND name NOT LIKE 'sqlite%')
                                 OR (type = 'view' AND name IN ('events', 'simt_issue',
                                                                 'simt_mem'))
                              ORDER BY name"); do
    columns=$(sqlite3 "$db" "SELECT count(*) FROM pragma_table_info('$table')")
    echo "-- $table"
    sqlite3 "$db" "SELECT * FROM \"$table\" ORDER BY $(seq -s, 1 "$columns")"
done
