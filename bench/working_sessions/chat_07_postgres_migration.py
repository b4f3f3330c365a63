"""A backend lead at a freight company moves its MySQL database to PostgreSQL with an assistant over
three months: schema conversion, loads and dry runs, replication, a vendor contract, query tuning and
the cut-over weekend."""

from __future__ import annotations

from textwrap import dedent

from bench.working_sessions.shape import Chat, Question, Session, a, u


def d(text: str) -> str:
    return dedent(text).strip("\n")


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
                """)
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
                """)
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
    Question("How many rows go into each batch in our load file?", "25000", ["batch-rows"], "code"),
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
]

CHAT = Chat(name="ws-07-postgres-migration", sessions=SESSIONS, questions=QUESTIONS)
