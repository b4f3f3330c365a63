"""A backend lead at a freight company moves its MySQL database to PostgreSQL with an assistant over
three months: schema conversion, loads and dry runs, replication, a vendor contract, query tuning and
the cut-over weekend."""

from __future__ import annotations

from bench.working_sessions.shape import Chat, Question, Session, a, d, u

SESSIONS = [
    Session(
        "2026-01-12T09:14:00Z",
        [
            u(
                d("""
                Morning. Context first: I run the backend team at Larkspur Freight. Our operations database
                is MySQL 5.7.38 on a single beefy box plus one replica, about 1.1 TB all in, ~140 tables.
                We've been told (by me, mostly) that we're moving to PostgreSQL 16 this quarter, on our own
                hardware, not a cloud service. I'd like a rough plan of phases so I can stop waving my hands
                in meetings.
                """),
                key="mysql-version",
            ),
            a(
                d("""
                Here's a phased plan that fits a quarter for a database that size. The phases overlap a bit,
                but each has a clear exit criterion.

                1. **Inventory** — tables, sizes, row counts, engines, charsets, triggers, stored procedures,
                   views, and which applications touch what. Exit: a spreadsheet you trust.
                2. **Schema conversion** — translate types (ENUM, unsigned ints, TINYINT(1), DATETIME with
                   zero dates, utf8mb4 collations), keys, indexes, and constraints. Exit: the full schema
                   creates cleanly on Postgres and passes a diff review.
                3. **Bulk load tooling** — pgloader is the usual choice for MySQL → Postgres. Exit: one full
                   load into staging with row counts matching.
                4. **Change capture** — something has to carry writes made during and after the bulk load,
                   so the cut-over window is minutes, not the length of a load. Exit: CDC keeps up at peak.
                5. **Application changes** — SQL dialect differences (backticks, `LIMIT x, y`, `GROUP BY`
                   leniency, `ON DUPLICATE KEY UPDATE` → `ON CONFLICT`), driver and pooler config.
                6. **Dry runs** — at least two full rehearsals of the cut-over against staging.
                7. **Cut-over** — write freeze, final sync, verification, switch, and a rollback path.

                For the inventory, this runs on the MySQL side:

                ```sql
                select table_name, engine, table_rows,
                       round((data_length + index_length) / 1024 / 1024 / 1024, 1) as size_gb
                from information_schema.tables
                where table_schema = 'ops'
                order by (data_length + index_length) desc
                limit 30;
                ```

                `table_rows` is an estimate for InnoDB, so treat it as ballpark; do a real `COUNT(*)` on the
                tables where it matters for verification later.
                """)
            ),
            u(
                d("""
                One thing before we go further: whenever you write SQL for me, keywords in uppercase,
                identifiers in lowercase. Our linter enforces it and I'm tired of fixing pasted snippets.
                """),
                key="sql-case",
            ),
            a(
                d("""
                Understood — I'll stick to that from now on. The inventory query again in that style:

                ```sql
                SELECT table_name, engine, table_rows,
                       ROUND((data_length + index_length) / 1024 / 1024 / 1024, 1) AS size_gb
                FROM information_schema.tables
                WHERE table_schema = 'ops'
                ORDER BY (data_length + index_length) DESC
                LIMIT 30;
                ```
                """)
            ),
            u(
                d("""
                Ran it. Top of the output:

                ```
                +-------------------+--------+------------+---------+
                | table_name        | engine | table_rows | size_gb |
                +-------------------+--------+------------+---------+
                | tracking_events   | InnoDB | 2140883112 |   312.4 |
                | invoice_lines     | InnoDB |  611203950 |   141.8 |
                | documents         | InnoDB |    4102288 |   118.0 |
                | audit_log         | InnoDB |  902331870 |    97.5 |
                | shipments         | InnoDB |   58310422 |    41.2 |
                | shipment_stops    | InnoDB |  171550301 |    38.9 |
                | invoices          | InnoDB |   40277711 |    22.6 |
                | customers         | InnoDB |     812004 |     1.9 |
                | carriers          | MyISAM |      14220 |     0.1 |
                ...
                ```

                documents is mostly longblob PDFs (proofs of delivery). carriers is MyISAM for reasons
                nobody remembers.
                """)
            ),
            a(
                d("""
                Useful. A few things jump out:

                - **tracking_events** (312 GB, ~2.1 B rows) will dominate the bulk load. It's append-only
                  GPS and status pings, right? That makes it a good candidate for range partitioning by
                  month on the Postgres side, which also makes retention a `DROP TABLE` instead of a huge
                  `DELETE`.
                - **documents** at 118 GB for 4 M rows means ~29 KB per row on average: blobs. Loading
                  LONGBLOB into `bytea` works, but it's slow and it bloats backups. Worth asking whether
                  those PDFs should move to object storage with just a key in the table.
                - **audit_log** is big but probably cold; could be loaded separately, earlier, and only
                  the tail synced at cut-over.
                - **carriers** on MyISAM has no transactions and no foreign keys. Tiny, so no load concern,
                  but check whether anything relies on MyISAM's table-level behaviour (unlikely).

                Next useful query: which tables have triggers, and which columns are ENUMs, since those
                need hand-work.

                ```sql
                SELECT event_object_table, trigger_name, action_timing, event_manipulation
                FROM information_schema.triggers
                WHERE trigger_schema = 'ops'
                ORDER BY event_object_table;
                ```
                """)
            ),
            u(
                d("""
                And when you estimate a duration, give me a range with a pessimistic end, never one number.
                Single figures get quoted back at me in standup as promises.
                """),
                key="estimates",
            ),
            a(
                d("""
                Fair, and a good habit anyway. Applying it right away to the question you'll be asked first —
                how long a full bulk load takes:

                With pgloader on decent hardware, MySQL → Postgres typically moves 50–150 MB/s depending on
                row width, indexes built after load, and how much CPU goes to type casting. For ~1.1 TB that's
                roughly **3 to 7 hours for the data**, plus **1 to 4 hours for index builds** on the big
                tables. So a first full load: 4–11 hours, with the pessimistic end being the realistic one
                for a first attempt. We'll tighten it after a trial load on staging.
                """)
            ),
            u("Ha, 11 hours. OK. Triggers: only two, both on invoices. I'll paste them another day."),
            a(
                d("""
                Two triggers is manageable. When you paste them, include the full body (`SHOW CREATE TRIGGER
                name\\G`) — the definer and the SQL mode it was created under can matter for how it behaves.
                """)
            ),
            u("will do. going to find coffee, the office machine is broken again"),
            a("Good luck. A migration project runs on coffee more than on pgloader."),
        ],
    ),
    Session(
        "2026-01-19T14:02:00Z",
        [
            u(
                d("""
                Schema conversion time. Here's shipments as MySQL has it:

                ```sql
                CREATE TABLE `shipments` (
                  `id` int(10) unsigned NOT NULL AUTO_INCREMENT,
                  `reference` varchar(32) NOT NULL,
                  `customer_id` int(10) unsigned NOT NULL,
                  `carrier_id` int(10) unsigned DEFAULT NULL,
                  `status` enum('booked','picked_up','in_transit','delivered','cancelled') NOT NULL DEFAULT 'booked',
                  `is_hazmat` tinyint(1) NOT NULL DEFAULT '0',
                  `weight_kg` decimal(10,2) DEFAULT NULL,
                  `booked_at` datetime NOT NULL,
                  `delivered_at` datetime DEFAULT '0000-00-00 00:00:00',
                  `notes` text,
                  PRIMARY KEY (`id`),
                  UNIQUE KEY `uq_reference` (`reference`),
                  KEY `idx_customer` (`customer_id`),
                  KEY `idx_status_booked` (`status`,`booked_at`)
                ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
                ```
                """)
            ),
            a(
                d("""
                Here's a Postgres version, with the decisions called out:

                ```sql
                CREATE TABLE shipments (
                    id            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                    reference     VARCHAR(32) NOT NULL,
                    customer_id   BIGINT NOT NULL,
                    carrier_id    BIGINT,
                    status        TEXT NOT NULL DEFAULT 'booked'
                                  CHECK (status IN ('booked', 'picked_up', 'in_transit', 'delivered', 'cancelled')),
                    is_hazmat     BOOLEAN NOT NULL DEFAULT FALSE,
                    weight_kg     NUMERIC(10, 2),
                    booked_at     TIMESTAMPTZ NOT NULL,
                    delivered_at  TIMESTAMPTZ,
                    notes         TEXT,
                    CONSTRAINT uq_shipments_reference UNIQUE (reference)
                );

                CREATE INDEX idx_shipments_customer ON shipments (customer_id);
                CREATE INDEX idx_shipments_status_booked ON shipments (status, booked_at);
                ```

                - **`INT UNSIGNED` → `BIGINT`**: Postgres has no unsigned types; `INTEGER` tops out at
                  2.1 billion, half the unsigned range. For ids that's usually fine, but `BIGINT` costs
                  4 bytes a row and removes the question forever.
                - **`GENERATED BY DEFAULT AS IDENTITY`** rather than `ALWAYS`, so the loader can insert
                  explicit ids. You'll have to reset the sequence after the load.
                - **ENUM → TEXT + CHECK**: Postgres has real enum types, but adding a value needs
                  `ALTER TYPE`, and removing one is painful. A CHECK constraint is easier to change.
                - **`delivered_at` zero date → NULL**: Postgres rejects `0000-00-00`. NULL is what the
                  application meant.
                - **Collation**: `utf8mb4_unicode_ci` is case-insensitive. Postgres default collations are
                  case-sensitive, so `WHERE reference = 'abc'` may stop matching `'ABC'`. Check if the app
                  relies on that; if so, `citext` or a nondeterministic ICU collation on specific columns.

                One question: are the DATETIME values stored in UTC, or local time?
                """)
            ),
            u("Local time. Europe/Warsaw. Our founder set it up in 2013 and nobody dared to touch it."),
            a(
                d("""
                Very common. Then the load should interpret them as Warsaw time and store real instants.
                The easiest place to do that is at load time — have pgloader load into `TIMESTAMP`
                (without time zone) in a staging column or table, then convert:

                ```sql
                ALTER TABLE shipments
                    ALTER COLUMN booked_at TYPE TIMESTAMPTZ
                    USING booked_at AT TIME ZONE 'Europe/Warsaw';
                ```

                Or set the session time zone of the loading connection to `Europe/Warsaw` and cast into
                `TIMESTAMPTZ` directly — Postgres interprets a zone-less literal in the session zone.
                That avoids rewriting a 300 GB table afterwards, which matters for tracking_events.

                Watch the DST edges: local times between 02:00 and 03:00 on the last Sunday of March don't
                exist, and 02:00–03:00 on the last Sunday of October happens twice. Postgres will pick an
                interpretation without complaining, so a handful of rows a year may shift by an hour.
                Probably tolerable for shipments; worth knowing for invoices.
                """)
            ),
            u(
                d("""
                From here on, every migration step you hand me comes with its way back out — the rollback,
                right under it. I've been on a team that lost a Sunday to a one-way ALTER.
                """),
                key="rollback",
            ),
            a(
                d("""
                Agreed, that's the discipline that saves weekends. Each step will come as a forward part and
                a rollback part. For the conversion above:

                ```sql
                -- forward
                BEGIN;
                ALTER TABLE shipments
                    ALTER COLUMN booked_at TYPE TIMESTAMPTZ
                    USING booked_at AT TIME ZONE 'Europe/Warsaw';
                COMMIT;

                -- rollback
                BEGIN;
                ALTER TABLE shipments
                    ALTER COLUMN booked_at TYPE TIMESTAMP
                    USING booked_at AT TIME ZONE 'Europe/Warsaw';
                COMMIT;
                ```

                Note both directions rewrite the table and take an `ACCESS EXCLUSIVE` lock, so on a big
                table the rollback costs as much as the step itself. Where a step is cheap forward but
                expensive back (or the other way round), I'll say so.
                """)
            ),
            u(
                d("""
                Re: tooling for these — I don't want Alembic or any ORM generating them. I like plain
                numbered .sql files in the repo, 0001_shipments.sql and so on, reviewed like any other code.
                """),
                key="sql-files",
            ),
            a(
                d("""
                That works well and keeps the DDL honest. A layout and a small runner:

                ```
                db/
                  migrations/
                    0001_shipments.up.sql
                    0001_shipments.down.sql
                    0002_invoices.up.sql
                    0002_invoices.down.sql
                  migrate.sh
                ```

                ```bash
                #!/usr/bin/env bash
                # usage: ./migrate.sh up|down <number>
                set -euo pipefail
                dir="$(dirname "$0")/migrations"
                direction="$1"; number="$2"
                file=$(ls "$dir"/"${number}"_*."${direction}".sql)

                psql -v ON_ERROR_STOP=1 --single-transaction -f "$file"

                if [[ "$direction" == up ]]; then
                  psql -v ON_ERROR_STOP=1 -c "INSERT INTO schema_migrations (version) VALUES ('$number');"
                else
                  psql -v ON_ERROR_STOP=1 -c "DELETE FROM schema_migrations WHERE version = '$number';"
                fi
                ```

                ```sql
                CREATE TABLE schema_migrations (
                    version     TEXT PRIMARY KEY,
                    applied_at  TIMESTAMPTZ NOT NULL DEFAULT now()
                );
                ```

                `--single-transaction` means a file either applies completely or not at all. The exception is
                `CREATE INDEX CONCURRENTLY`, which can't run in a transaction — those get a file of their own,
                run without that flag.
                """)
            ),
            u("Hollis wants the cut-over the weekend of March 14th, FYI.", key="cutover-old"),
            a(
                d("""
                Working back from March 14th, a schedule with some slack:

                - by **Jan 30**: schema converted for all ~140 tables, reviewed
                - by **Feb 6**: first trial load of the full dataset into staging
                - by **Feb 13**: CDC running and keeping up on staging
                - **Feb 14 or 21**: dry run 1 (full rehearsal)
                - **Feb 28 or Mar 7**: dry run 2
                - **Mar 14**: cut-over

                The tight spot is the app changes, which run in parallel with all of this. If the app team
                can't start until February, the date is at risk.
                """),
                key="cutover-plan",
            ),
            u("How do I find all the enum columns without reading 140 CREATE TABLEs?"),
            a(
                d("""
                `information_schema.columns` has them:

                ```sql
                SELECT table_name, column_name, column_type
                FROM information_schema.columns
                WHERE table_schema = 'ops'
                  AND data_type = 'enum'
                ORDER BY table_name, ordinal_position;
                ```

                And the same trick for the other hand-work types:

                ```sql
                SELECT data_type, column_type, COUNT(*) AS columns
                FROM information_schema.columns
                WHERE table_schema = 'ops'
                  AND (data_type IN ('enum', 'set', 'year', 'longblob', 'mediumblob')
                       OR column_type LIKE '%unsigned%'
                       OR column_type = 'tinyint(1)')
                GROUP BY data_type, column_type
                ORDER BY columns DESC;
                ```

                `SET` columns are the awkward ones if you have any: they become `TEXT[]` or a join table.
                """)
            ),
            u("31 enums, zero SETs, thank god. 212 unsigned int columns, all ids."),
            a(
                d("""
                Then the unsigned ones are mechanical — all ids → `BIGINT`. The 31 enums are the real work;
                I'd generate the CHECK constraints from the `column_type` string with a script rather than
                by hand, then review the output.
                """)
            ),
            u("does pgloader carry over column comments? we have a few that actually explain things"),
            a(
                d("""
                Not with `create no tables` — it only moves rows. Pull them from MySQL and turn them into
                `COMMENT ON` statements for your numbered files:

                ```sql
                SELECT CONCAT('COMMENT ON COLUMN ', table_name, '.', column_name, ' IS ',
                              QUOTE(column_comment), ';') AS stmt
                FROM information_schema.columns
                WHERE table_schema = 'ops' AND column_comment <> '';
                ```

                `QUOTE()` escapes single quotes the way Postgres expects.
                """)
            ),
        ],
    ),
    Session(
        "2026-01-27T10:30:00Z",
        [
            u(
                d("""
                Comparing options for the change-capture part. Candidates: Debezium + a sink we write
                ourselves, or Tessellate's Bridgeway (commercial). Tessellate quoted $18,000 a year for the
                support contract.
                """),
                key="vendor-old",
            ),
            a(
                d("""
                Some points on each:

                **Debezium + custom sink**
                - Free, widely used, reads the MySQL binlog reliably (needs `binlog_format=ROW`,
                  `binlog_row_image=FULL`).
                - You'd run Kafka (or Debezium Server with a simpler sink) and write the sink that applies
                  changes to Postgres — idempotent upserts, deletes, ordering per key.
                - Your team owns every bug, at 3am, during the cut-over.

                **Bridgeway**
                - MySQL → Postgres is a built-in path; type mapping and DDL handling come with it.
                - Support contract means someone else on the hook for the pipeline.
                - $18k/year, and you may only need it for a few months — check whether they do a
                  migration-only term.

                For a one-off migration with a small team, paying for the pipeline is usually the better
                trade, unless you plan to keep CDC running afterwards for analytics.
                """)
            ),
            u(
                d("""
                Could you redo that as a table? I'd rather read comparisons in tables than bullet lists —
                easier to paste into the decision doc.
                """),
                key="tables",
            ),
            a(
                d("""
                | | Debezium + custom sink | Tessellate Bridgeway |
                |---|---|---|
                | Licence cost | none | $18,000/year support contract |
                | Infrastructure | Kafka or Debezium Server, plus sink service | vendor agent on one VM |
                | MySQL → Postgres type mapping | write it yourselves in the sink | built in |
                | DDL changes during sync | manual | handled for common cases |
                | Who fixes it at 3am | your team | vendor (per SLA) |
                | Time to first sync | 2–4 weeks of engineering | 2–5 days |
                | Useful after migration | yes, if you want CDC for analytics | only if you keep paying |
                """)
            ),
            u(
                d("""
                We'll go with pgloader for the bulk load and Bridgeway for change capture. Their account
                manager is Ines Baptista, she's been helpful so far.
                """),
                key="vendor-contact",
            ),
            a(
                d("""
                Good split. Here's a pgloader load file for a first trial against staging, with the Warsaw
                time zone and zero-date handling built in:

                ```
                LOAD DATABASE
                     FROM mysql://loader@mysql-replica-01/ops
                     INTO postgresql://loader@pg-stage-01/ops

                WITH include no drop, create no tables, create no indexes,
                     reset sequences, data only,
                     workers = 8, concurrency = 2,
                     batch rows = 25000, prefetch rows = 50000

                SET PostgreSQL PARAMETERS
                     maintenance_work_mem to '2GB',
                     timezone to 'Europe/Warsaw'

                SET MySQL PARAMETERS
                     net_read_timeout = '600',
                     net_write_timeout = '600'

                CAST type datetime to timestamptz drop default drop not null using zero-dates-to-null,
                     type tinyint when (= precision 1) to boolean using tinyint-to-boolean

                EXCLUDING TABLE NAMES MATCHING 'tmp_', 'bak_'

                BEFORE LOAD DO
                     $$ SET session_replication_role = replica; $$;
                ```

                It reads from the MySQL replica so the load doesn't hit production. `create no tables`
                because your hand-converted schema from the numbered files is the source of truth —
                pgloader only moves rows.
                """),
                key="batch-rows",
            ),
            u(
                d("""
                first try on shipments only:

                ```
                2026-01-27T11:48:02.114000Z ERROR PostgreSQL Database error 22007: invalid input syntax
                for type timestamp with time zone: "0000-00-00 00:00:00"
                QUERY: COPY ops.shipments FROM STDIN
                2026-01-27T11:48:02.119000Z ERROR Error while loading table shipments, skipping.
                ```
                """)
            ),
            a(
                d("""
                The zero-dates cast matched `datetime` columns with a *default* of zero, but `booked_at`
                has real zero values without that default (MySQL in a non-strict mode let them in). Make
                the rule unconditional:

                ```
                CAST type datetime to timestamptz drop default drop not null using zero-dates-to-null,
                     column shipments.booked_at to timestamptz using zero-dates-to-null
                ```

                And find out how many there are, because `booked_at` is `NOT NULL` on the Postgres side and
                those rows will fail again at that constraint:

                ```sql
                SELECT COUNT(*) FROM shipments WHERE booked_at = '0000-00-00 00:00:00';
                ```
                """)
            ),
            u("17 rows, all from 2014. I'll set them to the created date from the audit log. Loaded now: 14 min."),
            a(
                d("""
                14 minutes for 41 GB is about 50 MB/s — the low end of the range I gave, which is normal for a
                first run with 8 workers. Raising `workers` to 12 and leaving indexes for later usually helps;
                the MySQL replica's disk may end up the limit before Postgres is.
                """)
            ),
            u(
                d("""
                btw the `export PGPASSWORD=...` line in your script fails for me — I'm on fish. I prefer fish
                everywhere, laptop and jump host, so `set -x` style please.
                """),
                key="fish",
            ),
            a(
                d("""
                Noted. The fish equivalents:

                ```fish
                set -x PGHOST pg-stage-01
                set -x PGUSER loader
                set -x PGPASSWORD (cat ~/.secrets/pg-stage-loader)
                set -x PGDATABASE ops
                ```

                Better still, put the password in `~/.pgpass` (`pg-stage-01:5432:ops:loader:...`, mode 600)
                and drop `PGPASSWORD` entirely — psql, pg_dump and pgloader all read it.
                """)
            ),
            u("Here are the two invoice triggers, as promised:"),
            u(
                d("""
                ```sql
                CREATE DEFINER=`ops_admin`@`%` TRIGGER invoices_after_update
                AFTER UPDATE ON invoices FOR EACH ROW
                BEGIN
                  INSERT INTO audit_log (entity, entity_id, action, changed_at, payload)
                  VALUES ('invoice', NEW.id, 'update', NOW(),
                          JSON_OBJECT('old_total', OLD.total, 'new_total', NEW.total));
                END

                CREATE DEFINER=`ops_admin`@`%` TRIGGER invoices_before_insert
                BEFORE INSERT ON invoices FOR EACH ROW
                SET NEW.number = CONCAT('LF-', YEAR(NEW.issued_at), '-', LPAD(NEW.seq, 6, '0'))
                ```
                """)
            ),
            a(
                d("""
                Both translate cleanly. Postgres triggers call a function:

                ```sql
                CREATE FUNCTION invoices_audit_update() RETURNS TRIGGER
                LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO audit_log (entity, entity_id, action, changed_at, payload)
                    VALUES ('invoice', NEW.id, 'update', now(),
                            jsonb_build_object('old_total', OLD.total, 'new_total', NEW.total));
                    RETURN NEW;
                END;
                $$;

                CREATE TRIGGER invoices_after_update
                AFTER UPDATE ON invoices
                FOR EACH ROW EXECUTE FUNCTION invoices_audit_update();

                CREATE FUNCTION invoices_number() RETURNS TRIGGER
                LANGUAGE plpgsql AS $$
                BEGIN
                    NEW.number := 'LF-' || EXTRACT(YEAR FROM NEW.issued_at) || '-' || LPAD(NEW.seq::TEXT, 6, '0');
                    RETURN NEW;
                END;
                $$;

                CREATE TRIGGER invoices_before_insert
                BEFORE INSERT ON invoices
                FOR EACH ROW EXECUTE FUNCTION invoices_number();
                ```

                ```sql
                -- rollback
                DROP TRIGGER IF EXISTS invoices_before_insert ON invoices;
                DROP TRIGGER IF EXISTS invoices_after_update ON invoices;
                DROP FUNCTION IF EXISTS invoices_number();
                DROP FUNCTION IF EXISTS invoices_audit_update();
                ```

                One catch: `EXTRACT(YEAR ...)` on a `TIMESTAMPTZ` uses the session time zone, so an invoice
                issued at 23:30 UTC on Dec 31 gets next year's number in Warsaw and this year's in UTC. Pin
                it with `EXTRACT(YEAR FROM NEW.issued_at AT TIME ZONE 'Europe/Warsaw')` to keep MySQL's
                behaviour.
                """),
                key="rc-req-triggers",
            ),
        ],
    ),
    Session(
        "2026-02-04T16:45:00Z",
        [
            u(
                d("""
                Hardware's in: pg-prod-01 (primary), pg-prod-02 (replica), pg-stage-01. Rule for examples:
                never aim anything at prod. Everything you show me should target pg-stage-01 — I copy-paste
                at 1am and I don't trust myself.
                """),
                key="staging",
            ),
            a(
                d("""
                Sensible. Every host in what I write will be pg-stage-01 unless you explicitly ask otherwise.

                To set up a streaming replica for rehearsal you'll want a second staging host eventually;
                for now, the commands you'd run, shown against staging:

                ```bash
                # on the replica host, with the data directory empty
                pg_basebackup -h pg-stage-01 -U replicator \\
                    -D /var/lib/postgresql/16/main \\
                    -X stream -C -S replica_slot_1 -R -P
                ```

                `-C -S replica_slot_1` creates a physical replication slot so the primary keeps WAL until the
                replica has it, and `-R` writes `standby.signal` plus `primary_conninfo`. On the primary:

                ```
                # postgresql.conf
                wal_level = replica
                max_wal_senders = 10
                max_replication_slots = 10
                wal_keep_size = 8GB
                ```

                ```
                # pg_hba.conf
                host  replication  replicator  10.20.0.0/24  scram-sha-256
                ```
                """)
            ),
            u(
                d("""
                We built pg-prod-02 as a replica of pg-prod-01 already (before the rule, sorry). During the
                trial bulk load it's lagging about 40 seconds behind. Is that bad?
                """),
                key="lag-old",
            ),
            a(
                d("""
                During a bulk load, 40 seconds isn't alarming — the load generates WAL far faster than normal
                traffic, and the replica replays it single-threaded. What matters is whether it catches up
                once the load stops and whether it stays low under normal write load.

                Watch it from the primary (here pointed at staging, same view exists on prod):

                ```sql
                SELECT application_name, state,
                       pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)) AS replay_behind,
                       write_lag, flush_lag, replay_lag
                FROM pg_stat_replication;
                ```

                If `write_lag` is high, it's the network or the replica's disk receiving WAL; if only
                `replay_lag` is high, it's replay (CPU or random I/O on the replica). Things that help:

                - `wal_compression = zstd` on the primary (less to ship, a bit more CPU)
                - the replica on fast storage, and not on a congested link
                - `max_wal_size` large enough (say 16GB) that the load doesn't checkpoint constantly
                """)
            ),
            u(
                d("""
                OK. Next: we're putting PgBouncer in front. The app is a Django monolith plus a Go service
                that ingests tracking pings (~3k inserts/s at peak). Give me a starting config.
                """)
            ),
            a(
                d("""
                A starting `pgbouncer.ini` for the staging box:

                ```ini
                [databases]
                ops = host=pg-stage-01 port=5432 dbname=ops

                [pgbouncer]
                listen_addr = 0.0.0.0
                listen_port = 6543
                auth_type = scram-sha-256
                auth_file = /etc/pgbouncer/userlist.txt

                pool_mode = transaction
                max_client_conn = 2000
                default_pool_size = 40
                reserve_pool_size = 10
                reserve_pool_timeout = 3

                server_idle_timeout = 300
                query_wait_timeout = 30
                max_prepared_statements = 200

                admin_users = pgbouncer_admin
                stats_users = pgbouncer_stats
                ```

                Transaction mode is what lets a few dozen server connections serve hundreds of Django
                workers. The costs: no session state across transactions (`SET`, advisory locks, `LISTEN`,
                temp tables). `max_prepared_statements` (PgBouncer 1.21+) lets the Go driver keep its
                prepared statements in transaction mode.
                """),
                key="pgbouncer-port",
            ),
            u("Django uses server-side cursors for two big CSV exports. Does transaction mode break that?"),
            a(
                d("""
                Yes — a server-side cursor (`.iterator()` on a queryset) is a named cursor that lives across
                fetches, and outside a transaction PgBouncer may hand the next fetch to a different server
                connection. Django has a setting for exactly this:

                ```python
                DATABASES = {
                    "default": {
                        "ENGINE": "django.db.backends.postgresql",
                        "HOST": "pgbouncer-stage",
                        "PORT": 6543,
                        "NAME": "ops",
                        "DISABLE_SERVER_SIDE_CURSORS": True,
                        "CONN_MAX_AGE": 0,
                    }
                }
                ```

                With it, `.iterator()` fetches in chunks client-side. For the two exports, if memory becomes
                a problem, wrap them in `transaction.atomic()` and use a cursor explicitly inside that — a
                cursor within one transaction is safe in transaction mode.
                """)
            ),
            u(
                d("""
                Let's install pg_stat_statements from day one, I want query stats before we tune anything.
                """),
                key="ext-statements",
            ),
            a(
                d("""
                Good call; it has to be preloaded, so it needs a restart — better now than later.

                ```
                # postgresql.conf
                shared_preload_libraries = 'pg_stat_statements'
                pg_stat_statements.max = 10000
                pg_stat_statements.track = top
                track_io_timing = on
                ```

                ```sql
                -- forward (after the restart)
                CREATE EXTENSION IF NOT EXISTS pg_stat_statements;

                -- rollback
                DROP EXTENSION IF EXISTS pg_stat_statements;
                ```

                Then the "what's expensive" query you'll use constantly:

                ```sql
                SELECT LEFT(query, 80) AS query, calls,
                       ROUND(total_exec_time::NUMERIC / 1000, 1) AS total_s,
                       ROUND(mean_exec_time::NUMERIC, 2) AS mean_ms
                FROM pg_stat_statements
                ORDER BY total_exec_time DESC
                LIMIT 20;
                ```
                """)
            ),
            u("Marek says hi, he's reading over my shoulder. He'll own the pgbouncer boxes going forward."),
            a(
                d("""
                Hi Marek. One thing for the PgBouncer owner: `SHOW POOLS;` and `SHOW STATS;` on the admin
                console (`psql -h pgbouncer-stage -p 6543 -U pgbouncer_admin pgbouncer`) — `cl_waiting`
                above zero for long means the pool is too small or a transaction is being held open.
                """)
            ),
            u("How many max_connections on the server then, with pool size 40?"),
            a(
                d("""
                The pool is per (database, user) pair. If the Django app and the Go ingester connect as
                different users, that's 2 × (40 + 10 reserve) = 100 server connections, plus the loader,
                replication, monitoring and a few for humans. `max_connections = 200` leaves room without
                wasting memory; each connection costs a few MB before `work_mem` is counted.
                """)
            ),
            u("Our ops guy wants ZFS for the data directory. Opinions?"),
            a(
                d("""
                ZFS works well for Postgres if it's tuned for it; the defaults aren't.

                | | ext4 / XFS | ZFS |
                |---|---|---|
                | Tuning needed | almost none | recordsize, compression, logbias, ARC size |
                | Compression | no | lz4/zstd, often 2–3× on your kind of data |
                | Snapshots | via LVM, clumsy | built in, cheap |
                | Write amplification | low | higher unless `full_page_writes` handled carefully |
                | Team familiarity | probably high | depends on your ops guy |

                If he runs ZFS elsewhere and knows it, go with `recordsize=16k` (or 8k), `compression=lz4`,
                `atime=off`, and cap the ARC so it doesn't fight `shared_buffers`. If nobody does, XFS is the
                boring choice and boring is good for a cut-over quarter.
                """)
            ),
            u("XFS then. He was mostly excited about the snapshots."),
            a("Snapshots can wait for the next project; pgBackRest gives you point-in-time recovery anyway."),
        ],
    ),
    Session(
        "2026-02-12T11:20:00Z",
        [
            u(
                d("""
                Tuning day. Month-end invoice report on staging takes 41 seconds. Query + plan:

                ```
                EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
                SELECT c.name, date_trunc('month', i.issued_at) AS month, SUM(l.amount) AS total
                FROM invoices i
                JOIN customers c ON c.id = i.customer_id
                JOIN invoice_lines l ON l.invoice_id = i.id
                WHERE i.issued_at >= '2025-01-01'
                GROUP BY c.name, month
                ORDER BY c.name, month;

                 Sort  (actual time=40882.101..41203.557 rows=298114 loops=1)
                   Sort Key: c.name, (date_trunc('month'::text, i.issued_at))
                   Sort Method: external merge  Disk: 1843200kB
                   ->  HashAggregate  (actual time=35120.44..39940.12 rows=298114 loops=1)
                         Group Key: c.name, date_trunc('month'::text, i.issued_at)
                         Batches: 21  Memory Usage: 4145kB  Disk Usage: 2210848kB
                         ->  Hash Join  (actual time=5402.33..27810.90 rows=10411287 loops=1)
                               Hash Cond: (l.invoice_id = i.id)
                               ->  Seq Scan on invoice_lines l  (actual time=0.02..9811.40 rows=611203950 loops=1)
                               ->  Hash  (actual time=5390.10..5390.11 rows=6988203 loops=1)
                 Planning Time: 1.912 ms
                 Execution Time: 41388.420 ms
                ```
                """)
            ),
            a(
                d("""
                Two separate problems in that plan:

                1. **Everything spills to disk.** The HashAggregate ran in 21 batches with 2.2 GB on disk and
                   the sort wrote 1.8 GB — default `work_mem` is 4MB. For a report run by one job, raise it
                   for that session only rather than globally.
                2. **Seq scan of all 611 M invoice_lines** to join ~7 M invoices. There's no index that lets
                   it fetch only the lines of 2025 invoices.

                On pg-stage-01:

                ```sql
                -- forward (own file: CONCURRENTLY can't run in a transaction)
                CREATE INDEX CONCURRENTLY idx_invoice_lines_invoice
                    ON invoice_lines (invoice_id) INCLUDE (amount);

                -- rollback
                DROP INDEX CONCURRENTLY IF EXISTS idx_invoice_lines_invoice;
                ```

                And in the report job itself:

                ```sql
                BEGIN;
                SET LOCAL work_mem = '256MB';
                SELECT c.name, date_trunc('month', i.issued_at) AS month, SUM(l.amount) AS total
                FROM invoices i
                JOIN customers c ON c.id = i.customer_id
                JOIN invoice_lines l ON l.invoice_id = i.id
                WHERE i.issued_at >= '2025-01-01'
                GROUP BY c.name, month
                ORDER BY c.name, month;
                COMMIT;
                ```

                `SET LOCAL` ends with the transaction, which matters behind PgBouncer in transaction mode —
                a plain `SET` would leak into whichever client gets that server connection next. The
                `INCLUDE (amount)` makes it an index-only scan once the table is vacuumed. The index build
                on 611 M rows: 25–70 minutes on that box, longer if the load is running at the same time.
                """),
                key="work-mem",
            ),
            u(
                d("""
                ```
                 Sort  (actual time=2260.51..2291.03 rows=298114 loops=1)
                   Sort Method: quicksort  Memory: 41210kB
                   ->  HashAggregate  (actual time=1998.40..2140.77 rows=298114 loops=1)
                         Batches: 1  Memory Usage: 118801kB
                         ->  Nested Loop  (actual time=0.31..1402.88 rows=10411287 loops=1)
                               ->  Index Scan using idx_invoices_issued_at on invoices i ...
                               ->  Index Only Scan using idx_invoice_lines_invoice on invoice_lines l ...
                                     Heap Fetches: 0
                 Execution Time: 2308.114 ms
                ```

                41s → 2.3s. I may cry.
                """)
            ),
            a(
                d("""
                That's the plan you want: one batch in memory, quicksort instead of external merge, index-only
                scan with zero heap fetches. `Heap Fetches: 0` depends on the visibility map being current, so
                make sure autovacuum keeps up on invoice_lines after the cut-over, or the number creeps up and
                so does the time.
                """)
            ),
            u(
                d("""
                Next slow one. The ingester asks "latest position for shipment X" constantly:

                ```sql
                SELECT lat, lon, recorded_at FROM tracking_events
                WHERE shipment_id = $1 ORDER BY recorded_at DESC LIMIT 1;
                ```

                ~180 ms each on staging. There's only an index on shipment_id.
                """)
            ),
            a(
                d("""
                With only `(shipment_id)`, Postgres fetches every ping of that shipment and sorts them to find
                the newest. A composite index in the sort order turns it into a single index probe:

                ```sql
                -- forward
                CREATE INDEX CONCURRENTLY idx_tracking_events_shipment_ts
                    ON tracking_events (shipment_id, recorded_at DESC);

                -- rollback
                DROP INDEX CONCURRENTLY IF EXISTS idx_tracking_events_shipment_ts;
                ```

                Once it exists, the old single-column index is redundant (the new one serves every query that
                used it), and dropping it saves ~40 GB and write amplification at 3k inserts/s:

                ```sql
                -- forward, after confirming idx_tracking_events_shipment_ts is used
                DROP INDEX CONCURRENTLY IF EXISTS idx_tracking_events_shipment;

                -- rollback
                CREATE INDEX CONCURRENTLY idx_tracking_events_shipment ON tracking_events (shipment_id);
                ```

                Expect the query to go from ~180 ms to well under 1 ms. The build on 2.1 B rows will take
                1.5–5 hours on pg-stage-01; if it fails halfway it leaves an `INVALID` index that you drop
                and retry.
                """),
                key="index-name",
            ),
            u("0.4 ms. Marek wants to know why we didn't do this on MySQL years ago. Good question honestly."),
            a(
                d("""
                MySQL would have benefited from the same index — the ingester query was slow there too,
                probably masked by the buffer pool holding recent pages. Worth telling the team the win came
                from the index, not the engine, so nobody expects Postgres to fix things by itself.
                """)
            ),
            u(
                d("""
                Customer search in the back office does `WHERE name LIKE '%smith%'` on customers and
                consignee_name on shipments. Any hope?
                """)
            ),
            a(
                d("""
                Yes — trigram indexes handle leading-wildcard `LIKE` and `ILIKE`:

                ```sql
                -- forward
                CREATE EXTENSION IF NOT EXISTS pg_trgm;
                CREATE INDEX CONCURRENTLY idx_customers_name_trgm
                    ON customers USING gin (name gin_trgm_ops);

                -- rollback
                DROP INDEX CONCURRENTLY IF EXISTS idx_customers_name_trgm;
                DROP EXTENSION IF EXISTS pg_trgm;
                ```

                Patterns shorter than three characters can't use it, and the GIN index on a big text column
                is large — for `shipments.consignee_name` expect a few GB. Since MySQL's collation was
                case-insensitive, switch the app to `ILIKE` so the behaviour matches; the trigram index
                serves both.
                """)
            ),
            u("OK, pg_trgm goes on the extensions list too then.", key="ext-trgm"),
            a("Added. So far: pg_stat_statements and pg_trgm, both in the baseline for every environment."),
            u(
                d("""
                Have to cut this short — daughter's recital at 4 and I promised I'd be there on time this
                time. Back tomorrow with the dry run plan.
                """),
                key="recital",
            ),
            a("Enjoy the recital. Tomorrow we can lay out the dry run checklist."),
        ],
    ),
    Session(
        "2026-02-23T08:55:00Z",
        [
            u(
                d("""
                Dry run #1 happened Saturday. Summary for you while it's fresh:

                - bulk load of everything except documents: 6h10m (inside your range, near the top)
                - Bridgeway caught up with the backlog in about 40 minutes after the load finished
                - the big failure: the sequences weren't reset, so the first test booking through the app
                  blew up with a duplicate key on shipments_pkey (id 1 already exists). pgloader's "reset
                  sequences" apparently does nothing when it didn't create the tables itself.
                - smaller stuff: two reports still had backticks in raw SQL, fixed

                Also, the cut-over moved to March 21st. Finance wants their February close and the quarter
                pre-close done on MySQL, so Hollis gave us an extra week. And he wants a go/no-go doc.
                """),
                key="dryrun-1",
            ),
            a(
                d("""
                Good rehearsal — that's exactly the kind of failure you want to find on a Saturday in
                February. For the sequences, generate a `setval` for every identity column from the catalog
                instead of listing them by hand, so a table added later isn't forgotten:

                ```sql
                DO $$
                DECLARE
                    r RECORD;
                    max_id BIGINT;
                BEGIN
                    FOR r IN
                        SELECT c.table_schema, c.table_name, c.column_name,
                               pg_get_serial_sequence(c.table_schema || '.' || c.table_name, c.column_name) AS seq
                        FROM information_schema.columns c
                        WHERE c.table_schema = 'ops'
                          AND c.is_identity = 'YES'
                    LOOP
                        EXECUTE format('SELECT COALESCE(MAX(%I), 0) FROM %I.%I',
                                       r.column_name, r.table_schema, r.table_name)
                            INTO max_id;
                        PERFORM setval(r.seq, max_id + 1, FALSE);
                        RAISE NOTICE '% -> %', r.seq, max_id + 1;
                    END LOOP;
                END;
                $$;
                ```

                Rollback: there isn't a meaningful one — the old sequence values were wrong. If you want to
                be able to compare, save them first:

                ```sql
                CREATE TABLE seq_backup AS
                SELECT schemaname, sequencename, last_value FROM pg_sequences WHERE schemaname = 'ops';
                ```

                This goes in the runbook right after the final CDC sync and before the app is pointed at
                Postgres. It takes seconds, except that `MAX(id)` on tracking_events needs the primary key
                index — a few seconds to a minute.

                March 21st gives you room for a second dry run on the 7th and a spare weekend.
                """)
            ),
            u("What should the go/no-go doc actually contain? Hollis isn't technical but he's sharp."),
            a(
                d("""
                A one-pager with criteria that are yes/no, decided in advance, so the meeting is about facts
                rather than mood:

                | Criterion | Go if | Evidence |
                |---|---|---|
                | Dry run 2 completed end to end | yes, within the window | runbook timings |
                | Row counts and checksums match | all tables, 0 unexplained diffs | verification script output |
                | CDC lag at weekday peak | under 60 s for a full week | Bridgeway dashboard |
                | App test suite against Postgres | green | CI run link |
                | Top 20 queries | none slower than on MySQL by 2× | pg_stat_statements comparison |
                | Rollback path rehearsed | yes | dry run 2 notes |
                | On-call staffed | primary, backup, DB standby named | rota |
                | Business sign-off | finance close done | email from finance |

                Plus a short "what could go wrong and what we'd do" section, with the decision deadline for
                aborting (e.g. Saturday 20:00: if we aren't past step N, we unfreeze MySQL and go home).
                """)
            ),
            u("When do we freeze writes? Warehouses run Saturdays until noon."),
            a(
                d("""
                Then a freeze Friday night, after the evening billing run, keeps the warehouses unaffected as
                long as they can work from the read-only portal on Saturday morning. A timeline, with ranges:

                | Step | Starts | Takes |
                |---|---|---|
                | Announce freeze, stop schedulers | Fri 21:30 UTC | 15–30 min |
                | Freeze writes (app to read-only mode) | Fri 22:00 UTC | — |
                | Final Bridgeway sync, confirm zero lag | Fri 22:00 UTC | 10–40 min |
                | Verification: counts + checksums | Fri ~22:40 UTC | 1.5–3 h |
                | Sequence reset, ANALYZE | Sat ~01:30 UTC | 30–90 min |
                | Switch PgBouncer to Postgres, smoke tests | Sat ~03:00 UTC | 30–60 min |
                | Reopen writes | Sat 04:00–06:00 UTC | — |

                So the application write freeze starts Friday 22:00 UTC, and the pessimistic end has writes
                back by Saturday 06:00, well before the warehouses open. Sunday stays as buffer for the
                documents table and anything that goes wrong.
                """),
                key="freeze",
            ),
            u(
                d("""
                On-call for the cut-over weekend: I'm primary, Marek is backup, and Juniper Osei (the DBA
                contractor) is on standby for anything deep in Postgres.
                """),
                key="oncall-old",
            ),
            a(
                d("""
                Worth writing down as an escalation policy so the pager does the remembering:

                ```yaml
                escalation_policy:
                  name: pg-cutover-weekend
                  window: "2026-03-20T20:00:00Z/2026-03-23T08:00:00Z"
                  rules:
                    - level: 1
                      notify: [you]
                      escalate_after_minutes: 10
                    - level: 2
                      notify: [marek]
                      escalate_after_minutes: 15
                    - level: 3
                      notify: [juniper-osei]
                  services:
                    - postgres-primary
                    - pgbouncer
                    - bridgeway-cdc
                ```

                Make sure Juniper's contract covers weekend call-outs — contractors' standby rates are often
                a separate line item.
                """)
            ),
            u("Can you write the verification script? Counts plus some kind of checksum per table."),
            a(
                d("""
                Here's a Python version with one connection to each side. Counts for every table, and for
                checksums an MD5 over ordered primary keys and one updated column in fixed id ranges, so a
                mismatch points at a range instead of a whole table:

                ```python
                import hashlib
                import os

                import psycopg
                import pymysql

                TABLES = {"shipments": "updated_at", "invoices": "updated_at", "customers": "updated_at"}
                CHUNK = 1_000_000

                my = pymysql.connect(host="mysql-replica-01", user="verify", database="ops",
                                     password=os.environ["MYSQL_VERIFY_PASSWORD"])
                pg = psycopg.connect("host=pg-stage-01 dbname=ops user=verify")

                def digest(cur, sql, args):
                    cur.execute(sql, args)
                    h = hashlib.md5()
                    for row in cur.fetchall():
                        h.update(repr(tuple(str(v) for v in row)).encode())
                    return h.hexdigest()

                for table, column in TABLES.items():
                    with my.cursor() as m, pg.cursor() as p:
                        m.execute(f"SELECT COUNT(*), MAX(id) FROM {table}")
                        my_count, top = m.fetchone()
                        p.execute(f"SELECT COUNT(*) FROM {table}")
                        (pg_count,) = p.fetchone()
                        print(f"{table}: mysql={my_count} postgres={pg_count}")
                        for low in range(0, (top or 0) + 1, CHUNK):
                            sql = f"SELECT id, {column} FROM {table} WHERE id >= %s AND id < %s ORDER BY id"
                            a, b = digest(m, sql, (low, low + CHUNK)), digest(p, sql, (low, low + CHUNK))
                            if a != b:
                                print(f"  mismatch in {table} ids {low}..{low + CHUNK}")
                ```

                Timestamps will differ in representation between the two sides (naive Warsaw vs aware UTC), so
                normalise them before hashing — convert on the MySQL side with `CONVERT_TZ(col, 'Europe/Warsaw',
                'UTC')` and on Postgres with `col AT TIME ZONE 'UTC'`. Set `MYSQL_VERIFY_PASSWORD` with
                `set -x` before running.
                """),
                key="rc-req-verify",
            ),
            u(
                d("""
                ```
                Traceback (most recent call last):
                  File "verify.py", line 24, in <module>
                    p.execute(f"SELECT COUNT(*) FROM {table}")
                psycopg.errors.UndefinedTable: relation "shipments" does not exist
                LINE 1: SELECT COUNT(*) FROM shipments
                ```

                it's definitely there, I can see it in pgcli
                """)
            ),
            a(
                d("""
                The tables live in the `ops` schema, and the `verify` role's `search_path` is the default
                `"$user", public`. In pgcli you're probably connecting as `loader`, which has `ops` on its
                path. Fix it for the role, once:

                ```sql
                -- forward
                ALTER ROLE verify SET search_path = ops, public;

                -- rollback
                ALTER ROLE verify RESET search_path;
                ```

                It takes effect on new connections. Or qualify the names in the script (`ops.{table}`), which
                is more robust anyway.
                """)
            ),
            u("counts match on everything except audit_log, off by 3,112. everything else checksums clean."),
            a(
                d("""
                audit_log is written continuously, and the counts on the two sides were taken a few seconds
                apart while Bridgeway was still applying changes — a few thousand rows in that gap is about
                right for an append-only table. Verification only means something once writes are frozen, or
                against a fixed upper bound: compare `WHERE id <= N` with the same N on both sides.

                During the real cut-over the freeze makes this go away; for the rehearsal, rerun with a bound
                and expect zero.
                """)
            ),
            u("With a bound: zero. Good. Thanks, that's enough for today."),
            a("Nice. Dry run 1 is a success in the sense that matters: it found the sequence problem."),
        ],
    ),
    Session(
        "2026-03-03T13:10:00Z",
        [
            u(
                d("""
                Updates. Replica on pg-prod-02: lag is under two seconds now, even at the weekday peak, after
                we raised wal_sender_timeout, turned on wal_compression and moved the box onto the same switch
                as the primary — it turned out it was going through the old core switch in the other rack.
                Also finished the enum conversion for the last four tables and the app team merged the
                ON CONFLICT rewrite of the booking upsert.
                """),
                key="lag-new",
            ),
            a(
                d("""
                That's a healthy number, and the switch was the classic hidden cause. Now make sure you hear
                about it if it creeps back. With postgres_exporter, an alert on the replica's replay delay:

                ```yaml
                groups:
                  - name: postgres-replication
                    rules:
                      - alert: PostgresReplicaLagging
                        expr: pg_replication_lag_seconds{instance="pg-prod-02:9187"} > 30
                        for: 5m
                        labels:
                          severity: warning
                        annotations:
                          summary: "pg-prod-02 is {{ $value | humanizeDuration }} behind"
                      - alert: PostgresReplicaLaggingBadly
                        expr: pg_replication_lag_seconds{instance="pg-prod-02:9187"} > 300
                        for: 5m
                        labels:
                          severity: page
                ```

                (The instance label is the only prod reference, since it's an alert, not a command.)
                `pg_replication_lag_seconds` is computed from the last replayed transaction's timestamp, so on
                a quiet primary it grows even when nothing is wrong. If Sunday nights page you, switch to
                the byte-based `pg_stat_replication` view on the primary.
                """),
                key="rc-req-lag-alert",
            ),
            u(
                d("""
                Contract: signed with Tessellate at $14,500 a year for two years. Ines got her manager to move
                on price if we committed for longer.
                """),
                key="vendor-new",
            ),
            a(
                d("""
                A good outcome — the multi-year commitment is the lever vendors usually respond to. Things
                worth checking in the signed version, if not already:

                | Clause | What to look for |
                |---|---|
                | SLA | response time for severity 1 at weekends (the cut-over) |
                | Scope | does it cover reverse replication (Postgres → MySQL) for rollback? |
                | Renewal | automatic or not, and the notice period |
                | Price change at renewal | capped increase, e.g. CPI or 5% |
                | Data handling | where their agent sends telemetry |
                """)
            ),
            u(
                d("""
                Checked. Sev 1 is 30 min response, 24/7. Contract renews on 1 September, with 60 days' notice to
                cancel. I put a reminder in the team calendar.
                """),
                key="vendor-renewal",
            ),
            a(
                d("""
                Sixty days before 1 September is 3 July, so the decision on keeping Bridgeway (for analytics
                CDC, say) has to be made in June. I'd put the reminder on June 15th to leave time for a
                discussion rather than on the deadline itself.
                """)
            ),
            u(
                d("""
                Dry run #2 on Saturday. Sequences fine this time. New problems:

                1. audit rows doubled for invoices — every invoice update during the sync window shows up twice
                   in audit_log on Postgres
                2. documents alone took 3h05m to load

                Everything else within the plan.
                """),
                key="dryrun-2",
            ),
            a(
                d("""
                The doubling is a trigger firing on the replicated changes. Bridgeway applies each invoice
                update to Postgres, which fires `invoices_after_update` there and writes an audit row — and the
                audit row MySQL's own trigger wrote also arrives through CDC. Two rows per update.

                The `session_replication_role = replica` in the pgloader file covered the bulk load's own
                connection, but Bridgeway's apply sessions are separate. Set it on Bridgeway's role so its
                sessions never fire ordinary triggers:

                ```sql
                -- forward
                ALTER ROLE bridgeway_apply SET session_replication_role = replica;

                -- rollback
                ALTER ROLE bridgeway_apply RESET session_replication_role;
                ```

                The role needs to be a superuser or have the privilege granted for that setting in 16
                (`GRANT SET ON PARAMETER session_replication_role TO bridgeway_apply;`). It also disables
                foreign key checks for those sessions, which is what you want for replicated data.

                And to clean the duplicates from the rehearsal:

                ```sql
                DELETE FROM audit_log a
                USING audit_log b
                WHERE a.entity = 'invoice'
                  AND a.entity = b.entity AND a.entity_id = b.entity_id
                  AND a.action = b.action AND a.payload = b.payload
                  AND a.changed_at = b.changed_at
                  AND a.id > b.id;
                ```
                """)
            ),
            u("And documents? 3 hours is a third of the window."),
            a(
                d("""
                Take it out of the window entirely. Documents are written once and almost never updated, so:

                1. Load documents in the week before the cut-over (Monday–Wednesday), while MySQL is live.
                2. Let Bridgeway carry new and changed documents from then on, like any other table.
                3. At cut-over only the final delta matters — minutes of rows.

                If you want the initial load faster anyway, split it by id range across several pgloader
                runs:

                ```
                LOAD DATABASE
                     FROM mysql://loader@mysql-replica-01/ops
                     INTO postgresql://loader@pg-stage-01/ops
                WITH data only, workers = 4, concurrency = 1, batch rows = 2000
                INCLUDING ONLY TABLE NAMES MATCHING 'documents'
                ;
                ```

                Smaller batches for documents because each row is ~29 KB — large batches of blobs mostly
                add memory pressure on the loader.
                """)
            ),
            u(
                d("""
                One more for the list: Ruth from finance (she's our compliance person too) wants every DDL and
                role change on the new cluster logged, so add pgaudit.
                """),
                key="ext-audit",
            ),
            a(
                d("""
                pgaudit also needs preloading, so it joins pg_stat_statements in the list — plan the restart
                before the cut-over, not after.

                ```
                # postgresql.conf on pg-stage-01
                shared_preload_libraries = 'pg_stat_statements,pgaudit'
                pgaudit.log = 'ddl, role'
                pgaudit.log_catalog = off
                pgaudit.log_parameter = off
                pgaudit.log_relation = off
                ```

                ```sql
                -- forward
                CREATE EXTENSION IF NOT EXISTS pgaudit;

                -- rollback
                DROP EXTENSION IF EXISTS pgaudit;
                ```

                `ddl, role` covers `CREATE/ALTER/DROP` and `GRANT/REVOKE/CREATE ROLE` — what Ruth asked for —
                without logging every `SELECT`, which would drown the logs. The entries land in the normal
                Postgres log with an `AUDIT:` prefix, so ship that log somewhere she can read it.
                """)
            ),
            u("She also asked if we can show who ran what on MySQL before the move. That's not my problem, is it?"),
            a(
                d("""
                Not a migration problem, no — but it's a one-line answer for her: MySQL 5.7 without an audit
                plugin keeps no such history, apart from the general log if it was ever on (it usually isn't,
                for performance). Keep the last binlogs with the MySQL box when you archive it; they show
                what changed, though not who ran it.
                """)
            ),
        ],
    ),
    Session(
        "2026-03-10T09:40:00Z",
        [
            u(
                d("""
                Change of plan on the rota. My sister moved her wedding to the 21st (long story involving a
                venue flooding), so I can't be on the hook that Saturday. Marek is primary for the cut-over
                weekend and I'm backup, reachable by phone from the reception. Juniper stays on standby. Can you
                update the escalation thing you wrote? Also the go/no-go meeting is set for the 18th.
                """),
                key="oncall-new",
            ),
            a(
                d("""
                Congratulations to your sister, and sorry about the venue. Updated:

                ```yaml
                escalation_policy:
                  name: pg-cutover-weekend
                  window: "2026-03-20T20:00:00Z/2026-03-23T08:00:00Z"
                  rules:
                    - level: 1
                      notify: [marek]
                      escalate_after_minutes: 10
                    - level: 2
                      notify: [you]
                      escalate_after_minutes: 20
                    - level: 3
                      notify: [juniper-osei]
                  services:
                    - postgres-primary
                    - pgbouncer
                    - bridgeway-cdc
                ```

                I gave level 2 twenty minutes rather than fifteen, since you'll be at a wedding. Make sure
                Marek has the runbook printed or offline — if the VPN dies at 2am, a PDF on a laptop saves you.
                """)
            ),
            u(
                d("""
                Another plan that looks wrong, the dispatcher screen:

                ```
                EXPLAIN (ANALYZE, COSTS OFF)
                SELECT * FROM shipments
                WHERE customer_id = 8812 AND status = 'in_transit';

                 Index Scan using idx_shipments_customer on shipments  (actual time=0.04..2811.20 rows=481223 loops=1)
                   Index Cond: (customer_id = 8812)
                   Filter: (status = 'in_transit'::text)
                   Rows Removed by Filter: 1204118
                 Planning Time: 0.3 ms
                 Execution Time: 2840.6 ms
                ```

                with COSTS on, the estimate was rows=12. customer 8812 is our biggest account.
                """)
            ),
            a(
                d("""
                rows=12 estimated, 481,223 actual: the planner assumes `customer_id` and `status` are
                independent and multiplies their selectivities. For your biggest account they're anything but.
                Two fixes, best used together:

                ```sql
                -- forward: teach the planner the columns are correlated
                CREATE STATISTICS stx_shipments_customer_status (dependencies, mcv)
                    ON customer_id, status FROM shipments;
                ANALYZE shipments;

                -- rollback
                DROP STATISTICS IF EXISTS stx_shipments_customer_status;
                ANALYZE shipments;
                ```

                ```sql
                -- forward: an index that serves the filter directly
                CREATE INDEX CONCURRENTLY idx_shipments_customer_status
                    ON shipments (customer_id, status);

                -- rollback
                DROP INDEX CONCURRENTLY IF EXISTS idx_shipments_customer_status;
                ```

                Also, the dispatcher screen doesn't need `SELECT *` over 480k rows — if it shows a page of 50,
                a `LIMIT` with a keyset on `booked_at` would make it instant regardless of the plan.
                """)
            ),
            u("Stats alone: estimate is 450k now and it picks a bitmap scan, 900ms. With the index, 140ms."),
            a(
                d("""
                Good numbers. The bigger lesson for the cut-over: after a bulk load the planner's statistics
                are whatever autovacuum got round to, so put an explicit analyze in the runbook right after the
                load:

                ```bash
                vacuumdb -h pg-stage-01 -d ops --analyze-in-stages --jobs 8
                ```

                `--analyze-in-stages` runs a quick, coarse pass first so the planner has something within
                minutes, then refines. On your data: 20–60 minutes for the full three stages.
                """)
            ),
            u("Should we partition tracking_events before cut-over or after?"),
            a(
                d("""
                | | Before cut-over | After cut-over |
                |---|---|---|
                | Risk on the weekend | higher: new DDL, new load path | none added |
                | Load complexity | pgloader into a partitioned parent (works, slower) | unchanged |
                | Bridgeway support | must check it handles partitioned targets | not an issue then |
                | Work afterwards | none | online migration into partitions |
                | Retention wins | immediate | a few weeks later |

                After. The cut-over weekend should change as little as possible beyond the engine itself.
                """)
            ),
            u("After, agreed. Hollis wants the go/no-go doc by Thursday, I'll adapt your table."),
            a("Sounds good. Fill the evidence column with links, not adjectives, and it writes itself."),
            u("What's a sane statement_timeout for the app role?"),
            a(
                d("""
                For the web app, something that kills runaway queries before users give up anyway — 30 seconds
                is common. The reports run under their own role with a longer limit:

                ```sql
                -- forward
                ALTER ROLE app_web SET statement_timeout = '30s';
                ALTER ROLE app_reports SET statement_timeout = '15min';
                ALTER ROLE app_web SET idle_in_transaction_session_timeout = '60s';

                -- rollback
                ALTER ROLE app_web RESET statement_timeout;
                ALTER ROLE app_reports RESET statement_timeout;
                ALTER ROLE app_web RESET idle_in_transaction_session_timeout;
                ```

                `idle_in_transaction_session_timeout` matters behind PgBouncer: a transaction left open holds
                a server connection out of the pool.
                """)
            ),
            u("does that apply through pgbouncer? the role is what pgbouncer logs in as, right?"),
            a(
                d("""
                Yes — role settings apply when the server connection is opened, and PgBouncer opens it as the
                client's user (with `auth_type` passing the user through). So each pool gets its role's
                timeouts. Only if you configured a single `user=` in the `[databases]` line would every client
                share one role's settings.
                """)
            ),
            u("unrelated: pgcli shows every timestamp in UTC and my brain reads Warsaw. can I change it for me only?"),
            a(
                d("""
                Set it on your own role, so it follows you into any client:

                ```sql
                -- forward
                ALTER ROLE tomasz SET timezone = 'Europe/Warsaw';

                -- rollback
                ALTER ROLE tomasz RESET timezone;
                ```

                (Replace `tomasz` with your login if it differs.) The stored values don't change; only how
                your sessions display them. Don't do it for the app roles — Django wants UTC sessions.
                """)
            ),
        ],
    ),
    Session(
        "2026-03-18T17:20:00Z",
        [
            u("Go/no-go was this afternoon. It's a go. Final look at the runbook's switch-over part?"),
            a(
                d("""
                Congratulations — now it's execution. The switch itself, done at PgBouncer so the applications
                don't need a deploy. Two `[databases]` entries prepared in advance:

                ```ini
                ; before: the apps talk to MySQL directly; pgbouncer only fronts postgres
                [databases]
                ops = host=pg-stage-01 port=5432 dbname=ops
                ```

                The Django side switches by environment, prepared as a second settings file:

                ```python
                # settings/postgres_cutover.py
                from .base import *  # noqa

                DATABASES["default"] = {
                    "ENGINE": "django.db.backends.postgresql",
                    "HOST": os.environ.get("PG_HOST", "pgbouncer-stage"),
                    "PORT": 6543,
                    "NAME": "ops",
                    "USER": "app_web",
                    "DISABLE_SERVER_SIDE_CURSORS": True,
                }
                ```

                Sequence in the runbook:

                1. freeze confirmed, Bridgeway lag zero, verification clean
                2. sequence reset + analyze
                3. `DJANGO_SETTINGS_MODULE=settings.postgres_cutover`, rolling restart of the web pods
                4. Go ingester: new DSN, restart
                5. smoke tests: book, track, invoice, export
                6. reopen writes

                Keep MySQL running but read-only for the whole weekend.
                """)
            ),
            u("And the way back if Postgres falls over Sunday morning, after writes reopened?"),
            a(
                d("""
                After writes reopen on Postgres, going back means carrying those new writes back to MySQL, so
                the options are:

                | Option | Data loss | Effort | Needs |
                |---|---|---|---|
                | Reverse CDC (Postgres → MySQL) from reopening | none | low at the time | reverse path set up Friday |
                | Replay from application logs | possible | high | good logs |
                | Accept loss since reopening | all writes since | none | nobody wants this |

                Reverse CDC is the only real option. Set it up during the freeze, so it captures from the first
                write on Postgres. The abort deadline in the go/no-go doc covers the time before reopening; the
                reverse stream covers after.
                """)
            ),
            u("Bridgeway does the reverse path, Ines confirmed, it's covered by the contract at no extra cost."),
            a(
                d("""
                Then the rollback after reopening is: stop apps, let reverse CDC drain (watch it reach zero),
                switch settings back to MySQL, restart. Rehearse the switch part at least on staging before
                Friday — it's the step nobody practises and everybody needs at 4am.
                """)
            ),
            u(
                d("""
                rehearsed it on staging just now, took 11 min. one hiccup: the Go service cached the old DSN in
                a systemd env file, had to edit it by hand
                """)
            ),
            a(
                d("""
                Put that file into the runbook explicitly, with its path and the exact line to change, for
                both directions. Or better, have the service read the DSN from the same config source as
                Django, so there's one switch instead of two.
                """)
            ),
            u("Not changing the ingester config mechanism 3 days before cut-over. Runbook it is."),
            a("Right call. Freeze the code, not just the writes."),
            u("Bought an absurd amount of snacks for the war room. Marek requested the sour gummies."),
            a("The real critical path. Good luck Friday — and to your sister on Saturday."),
        ],
    ),
    Session(
        "2026-03-23T10:05:00Z",
        [
            u(
                d("""
                We're live on Postgres. Cut-over finished Sunday 04:40 UTC — about two hours past the
                pessimistic end because the documents delta was bigger than expected (someone kicked off a
                bulk re-scan of POD PDFs on Thursday). No data issues, verification clean. Marek was a star.
                """)
            ),
            a(
                d("""
                Congratulations to the whole team. For the first week, things to watch daily:

                ```sql
                -- slowest statements since the switch
                SELECT LEFT(query, 80) AS query, calls,
                       ROUND(mean_exec_time::NUMERIC, 1) AS mean_ms,
                       ROUND(total_exec_time::NUMERIC / 1000) AS total_s
                FROM pg_stat_statements
                ORDER BY total_exec_time DESC
                LIMIT 15;

                -- tables where autovacuum is falling behind
                SELECT relname, n_live_tup, n_dead_tup,
                       ROUND(n_dead_tup::NUMERIC / GREATEST(n_live_tup, 1), 3) AS dead_ratio,
                       last_autovacuum
                FROM pg_stat_user_tables
                ORDER BY n_dead_tup DESC
                LIMIT 15;
                ```

                Also: connection counts in PgBouncer (`SHOW POOLS`), disk growth (WAL and the audit log), and
                any queries that now time out at 30 s that didn't before.
                """)
            ),
            u(
                d("""
                One error in the Go ingester logs, a few hundred times overnight:

                ```
                ERROR: prepared statement "stmtcache_5f1b2c3d" already exists (SQLSTATE 42P05)
                ```
                """)
            ),
            a(
                d("""
                That's pgx's statement cache meeting PgBouncer in transaction mode: pgx prepares a statement on
                one server connection, and the next transaction lands on a different one where the name exists
                already (or doesn't). `max_prepared_statements` on PgBouncer handles protocol-level prepares,
                but only from PgBouncer 1.21 — check the version on the box. If it's older, switch pgx off
                named prepared statements:

                ```go
                cfg, err := pgxpool.ParseConfig(os.Getenv("TRACKING_DSN"))
                if err != nil {
                    return err
                }
                cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
                pool, err := pgxpool.NewWithConfig(ctx, cfg)
                ```

                `QueryExecModeCacheDescribe` keeps most of the performance without server-side named
                statements. `QueryExecModeSimpleProtocol` is the blunt option.
                """)
            ),
            u("1.18 on the box. Marek will upgrade it this week, I'll do the pgx change in the meantime."),
            a("Both is best: the upgrade fixes it for any other client that prepares statements too."),
            u("Top of pg_stat_statements now is the POD PDF export: 9 s mean, 1,400 calls since Sunday."),
            a(
                d("""
                That's the one that selects `documents.content` — the `bytea` column — for a whole shipment
                at a time. Two cheap fixes before anything clever:

                ```sql
                -- only fetch the blob when it's needed: list first
                SELECT id, filename, LENGTH(content) AS bytes, created_at
                FROM documents
                WHERE shipment_id = $1
                ORDER BY created_at;

                -- then one document per request
                SELECT content FROM documents WHERE id = $1;
                ```

                and check that `documents` has an index on `shipment_id`; the MySQL one may not have been
                carried over if it was created after the schema dump.
                """)
            ),
            u("The index was missing. Of course it was. Added (with its rollback, before you ask)."),
            a("Ha. Then expect that export to drop to well under a second."),
            u("How long should we keep the MySQL box around?"),
            a(
                d("""
                Keep it read-only for 30 days, then take a final logical dump and power it off, then delete the
                dump at whatever retention your contracts require for operational data:

                ```bash
                mysqldump -h mysql-replica-01 --single-transaction --routines --triggers \\
                    --databases ops | zstd -T0 -19 > ops-final-2026-04.sql.zst
                ```

                30 days covers month-end invoicing once on Postgres, which is the last thing likely to send
                someone looking for "how it was on MySQL".
                """)
            ),
            u("Hollis sent pizza to the war room on Sunday. Morale is very good."),
            a("Well earned. Enjoy the quiet week — you've earned that too."),
        ],
    ),
    Session(
        "2026-04-07T15:30:00Z",
        [
            u(
                d("""
                Two weeks in. Dead tuples on tracking_events keep climbing:

                ```
                     relname     | n_live_tup | n_dead_tup | dead_ratio |        last_autovacuum
                -----------------+------------+------------+------------+-------------------------------
                 tracking_events | 2201338410 |  198420113 |      0.090 | 2026-04-01 03:12:44.10922+00
                 audit_log       |  931220008 |   21033012 |      0.023 | 2026-04-06 22:40:11.33871+00
                 shipments       |   58902211 |    1022877 |      0.017 | 2026-04-07 09:02:55.00413+00
                ```

                nobody updates tracking_events, where do dead tuples come from?
                """)
            ),
            a(
                d("""
                Nobody updates it by hand, but something must: dead tuples come only from `UPDATE` or `DELETE`.
                Likely suspects: the nightly retention job deleting pings older than two years, or the ingester
                doing an upsert (`ON CONFLICT DO UPDATE`) for duplicate pings. Check which:

                ```sql
                SELECT LEFT(query, 100) AS query, calls, rows
                FROM pg_stat_statements
                WHERE query ILIKE '%tracking_events%'
                  AND (query ILIKE 'update%' OR query ILIKE 'delete%' OR query ILIKE '%on conflict%')
                ORDER BY rows DESC;
                ```

                Either way, on a 2.2 B row table the default `autovacuum_vacuum_scale_factor` of 0.2 means
                autovacuum waits for 440 M dead rows. Per-table settings:

                ```sql
                -- forward
                ALTER TABLE tracking_events SET (
                    autovacuum_vacuum_scale_factor = 0.0,
                    autovacuum_vacuum_threshold = 5000000,
                    autovacuum_vacuum_cost_limit = 2000
                );

                -- rollback
                ALTER TABLE tracking_events RESET (
                    autovacuum_vacuum_scale_factor,
                    autovacuum_vacuum_threshold,
                    autovacuum_vacuum_cost_limit
                );
                ```
                """)
            ),
            u("It's the retention DELETE. 5 million rows a night."),
            a(
                d("""
                Then partitioning fixes it at the root: with monthly partitions, retention becomes dropping the
                oldest partition — instant, no dead tuples, no vacuum. That's the post-cut-over project we
                agreed on. Until then, the autovacuum settings above keep it in check.

                Outline for moving to partitions online:

                1. create `tracking_events_p` partitioned by range on `recorded_at`, monthly
                2. new writes go to both (trigger on the old table, or dual-write in the ingester)
                3. backfill month by month, oldest first, in batches
                4. swap names in one short transaction, keep the old table for a week
                5. retention job becomes `DROP TABLE` of the oldest partition

                Each step with its rollback, as usual — I'll write them out when you're ready to start.
                Rough effort: 2–4 weeks of part-time work, backfill included.
                """)
            ),
            u("Next month. This month I'm switching off MySQL. Checklist?"),
            a(
                d("""
                | Step | Check before moving on |
                |---|---|
                | Search code and configs for the MySQL host names | no hits outside the archive docs |
                | Revoke app users on MySQL | nothing breaks for 48 h |
                | Stop Bridgeway reverse stream | Tessellate informed |
                | Final dump, verify it restores on a scratch box | row counts match |
                | Power off MySQL, keep disks 30 days | — |
                | Remove from monitoring and backups | no alerts firing for a dead host |
                | Update the architecture diagram | — |

                The revoke-and-wait step is the useful one: it finds the forgotten cron job on some server
                before the box is gone.
                """)
            ),
            u("Revoke-and-wait found two cron jobs already, on a box I didn't know we had. Ha."),
            a("There's always one more box. Two is a good haul — both move to Postgres or to the bin?"),
            u("Juniper's invoice came in: the standby weekend billed at double rate. Fine, she earned it."),
            a("Cheap insurance, in hindsight. A weekend with a DBA on standby is one nobody regrets paying for."),
            u("Bin. One was emailing a report to someone who left in 2022."),
            a("The best kind of migration work: deleting things."),
        ],
    ),
]

QUESTIONS = [
    Question("Which MySQL version are we migrating off?", "5.7.38", ["mysql-version"], "single-fact"),
    Question(
        "Draft me something that lists shipments booked last week with their carrier names.",
        "keywords in uppercase",
        ["sql-case"],
        "standing-instruction",
    ),
    Question(
        "Reindexing tracking_events after the load — what am I in for?",
        "a range with a pessimistic end",
        ["estimates"],
        "standing-instruction",
    ),
    Question(
        "Add an index on invoices by customer_id for me.",
        "the rollback, right under it",
        ["rollback"],
        "standing-instruction",
    ),
    Question(
        "How do I see what the replication slots are doing?",
        "pg-stage-01",
        ["staging"],
        "standing-instruction",
    ),
    Question(
        "Set up the schema change for the new carrier_rates table.",
        "plain numbered .sql files",
        ["sql-files"],
        "preference",
    ),
    Question(
        "pg_repack or VACUUM FULL for the bloated tracking_events — which would you go with?",
        "in tables",
        ["tables"],
        "preference",
    ),
    Question(
        "Give me the environment variables I need before a loader run on my own machine.",
        "fish",
        ["fish"],
        "preference",
    ),
    Question("How many rows per batch did we give pgloader for the main bulk load?", "25000", ["batch-rows"], "code"),
    Question("Which port does the connection pooler listen on?", "6543", ["pgbouncer-port"], "code"),
    Question("How much work_mem did we give the month-end invoice report?", "256MB", ["work-mem"], "code"),
    Question(
        "What did we call the index for the latest position of a shipment?",
        "idx_tracking_events_shipment_ts",
        ["index-name"],
        "code",
    ),
    Question(
        "Why did I have to leave early in the middle of the tuning work?",
        "daughter's recital",
        ["recital"],
        "single-fact",
    ),
    Question(
        "What date did the cut-over end up on?",
        "March 21st",
        ["dryrun-1"],
        "knowledge-update",
        superseded=["cutover-old", "cutover-plan"],
    ),
    Question(
        "How far behind the primary is the Postgres replica these days?",
        "under two seconds",
        ["lag-new"],
        "knowledge-update",
        superseded=["lag-old"],
    ),
    Question(
        "What are we paying Tessellate per year?",
        "$14,500",
        ["vendor-new"],
        "knowledge-update",
        superseded=["vendor-old"],
    ),
    Question(
        "Who's primary on call for the cut-over weekend?",
        "Marek is primary",
        ["oncall-new"],
        "knowledge-update",
        superseded=["oncall-old"],
    ),
    Question(
        "Which Postgres extensions did we decide to install on the new cluster?",
        "pg_stat_statements; pg_trgm; pgaudit",
        ["ext-statements", "ext-trgm", "ext-audit"],
        "multi-turn",
    ),
    Question(
        "Who is my contact at Tessellate, and when does our contract with them renew?",
        "Ines Baptista; 1 September",
        ["vendor-contact", "vendor-renewal"],
        "multi-turn",
    ),
    Question(
        "What went wrong in the two dry runs?",
        "sequences weren't reset; audit rows doubled",
        ["dryrun-1", "dryrun-2"],
        "multi-turn",
    ),
    Question(
        "At what time on the Friday do writes to MySQL stop?",
        "22:00 UTC",
        ["freeze"],
        "single-fact",
    ),
    Question(
        "Add tracking_events to the cut-over consistency check; it only covers three tables right now.",
        "MYSQL_VERIFY_PASSWORD",
        ["rc-req-verify"],
        "request-context",
    ),
    Question(
        "Make the replica delay warning fire at 10 seconds instead, we're normally under two now.",
        "PostgresReplicaLagging",
        ["rc-req-lag-alert"],
        "request-context",
    ),
    Question(
        "Change the invoice numbering function so the sequence part is padded to eight digits.",
        "invoices_number",
        ["rc-req-triggers"],
        "request-context",
    ),
]

CHAT = Chat(name="ws-07-postgres-migration", sessions=SESSIONS, questions=QUESTIONS)
