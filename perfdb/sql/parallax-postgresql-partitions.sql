-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- Parallax schema version 2 on PostgreSQL: timer_call_data and timer_value become tables
-- partitioned by range of the call-data id, one partition per uploaded trial (perfdb/README.md,
-- "Performance"). An upload copies its rows into fresh tables without indexes, builds the
-- indexes with one sort each and attaches the tables; deleting a trial drops them. Columns,
-- keys, index names and the id sequence stay TAUdb's, so every query and view works unchanged.
--
-- Run when a Parallax database is created (on TAUdb's empty tables) and by the migration from
-- version 1 (on tables with rows: they stay, as one partition below the next free id).
-- Idempotent. The compatibility views must not exist yet (they would follow the renamed tables).
DO $$
DECLARE
    bound BIGINT;
    has_rows BOOLEAN;
BEGIN
    IF (SELECT relkind FROM pg_class WHERE oid = 'timer_call_data'::regclass) = 'p' THEN
        RETURN;
    END IF;
    -- Every existing and reserved id is below the sequence's next value.
    SELECT last_value + 1 INTO bound FROM timer_call_data_id_seq;

    ALTER TABLE timer_call_data RENAME TO parallax_call_data_legacy;
    ALTER INDEX timer_call_data_pkey RENAME TO parallax_call_data_legacy_pkey;
    ALTER INDEX timer_call_data_timer_callpath RENAME TO parallax_call_data_legacy_timer_callpath;
    ALTER INDEX timer_call_data_thread RENAME TO parallax_call_data_legacy_thread;
    CREATE TABLE timer_call_data (
        id INT NOT NULL DEFAULT nextval('timer_call_data_id_seq'),
        timer_callpath INT NOT NULL,
        thread INT NOT NULL,
        calls DOUBLE PRECISION,
        subroutines DOUBLE PRECISION,
        time_range INT,
        CONSTRAINT timer_call_data_pkey PRIMARY KEY (id)
    ) PARTITION BY RANGE (id);
    CREATE INDEX timer_call_data_timer_callpath ON timer_call_data (timer_callpath);
    CREATE INDEX timer_call_data_thread ON timer_call_data (thread);
    ALTER SEQUENCE timer_call_data_id_seq OWNED BY timer_call_data.id;

    ALTER TABLE timer_value RENAME TO parallax_value_legacy;
    ALTER INDEX timer_value_index RENAME TO parallax_value_legacy_index;
    CREATE TABLE timer_value (
        timer_call_data INT NOT NULL,
        metric INT NOT NULL,
        inclusive_value DOUBLE PRECISION,
        exclusive_value DOUBLE PRECISION,
        inclusive_percent DOUBLE PRECISION,
        exclusive_percent DOUBLE PRECISION,
        sum_exclusive_squared DOUBLE PRECISION
    ) PARTITION BY RANGE (timer_call_data);
    CREATE INDEX timer_value_index ON timer_value (timer_call_data, metric);

    SELECT EXISTS (SELECT 1 FROM parallax_call_data_legacy) OR EXISTS (SELECT 1 FROM parallax_value_legacy)
        INTO has_rows;
    IF has_rows THEN
        -- The old rows become the partition of every id below `bound` (validated by one scan).
        EXECUTE format('ALTER TABLE timer_call_data ATTACH PARTITION parallax_call_data_legacy '
                       'FOR VALUES FROM (MINVALUE) TO (%s)', bound);
        EXECUTE format('ALTER TABLE timer_value ATTACH PARTITION parallax_value_legacy '
                       'FOR VALUES FROM (MINVALUE) TO (%s)', bound);
    ELSE
        DROP TABLE parallax_call_data_legacy;
        DROP TABLE parallax_value_legacy;
    END IF;
END
$$;
