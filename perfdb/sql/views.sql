-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- TAUdb's compatibility views, which emulate the legacy PerfDMF tables (docs/FORMATS.md 7.2), except
-- interval_event (interval-event-<dialect>.sql). TAUdb defines them on PostgreSQL only; Parallax
-- creates them on SQLite too. Columns are named by aliases in the SELECT, never by the
-- `CREATE VIEW v (columns) AS` form: SQLite before 3.9 (the driver TAU bundles is 3.7.2) cannot
-- parse that form and then refuses the whole database. Differences from TAUdb, on purpose:
-- * inclusive_per_call is NULL where calls = 0 (PostgreSQL would fail the whole query on a
--   division by zero; Parallax keeps present cells with 0 calls).
-- * atomic_total_summary and atomic_mean_summary are computed from the real threads' rows (sum,
--   and mean over the threads that have the event): counter_value has no rows for derived
--   threads, because TAU's reader would turn each into a thread (docs/FORMATS.md 7.2). TAUdb's
--   select thread = -2 (always empty) and thread >= -1 (every real thread).
-- * standard_deviation is counter_value's column as it is: the sum of squares, as TAU writes it.

CREATE VIEW interval_event_value AS
SELECT tcd.timer_callpath AS interval_event, h.node_rank AS node, h.context_rank AS context,
    h.thread_rank AS thread, tv.metric AS metric, tv.inclusive_percent AS inclusive_percentage,
    tv.inclusive_value AS inclusive, tv.exclusive_percent AS exclusive_percentage, tv.exclusive_value AS exclusive,
    tcd.calls AS call, tcd.subroutines AS subroutines, tv.inclusive_value / NULLIF(tcd.calls, 0) AS inclusive_per_call,
    tv.sum_exclusive_squared AS sum_exclusive_squared
FROM timer_value tv JOIN timer_call_data tcd ON tv.timer_call_data = tcd.id JOIN thread h ON tcd.thread = h.id;

CREATE VIEW interval_location_profile AS
SELECT * FROM interval_event_value WHERE thread >= 0;

CREATE VIEW interval_total_summary AS
SELECT interval_event, metric, inclusive_percentage, inclusive, exclusive_percentage, exclusive, call, subroutines,
    inclusive_per_call, sum_exclusive_squared
FROM interval_event_value WHERE thread = -2;

CREATE VIEW interval_mean_summary AS
SELECT interval_event, metric, inclusive_percentage, inclusive, exclusive_percentage, exclusive, call, subroutines,
    inclusive_per_call, sum_exclusive_squared
FROM interval_event_value WHERE thread = -1;

CREATE VIEW atomic_event AS
SELECT c.id AS id, c.trial AS trial, c.name AS name, CAST(NULL AS TEXT) AS group_name,
    CAST(NULL AS TEXT) AS source_file, CAST(NULL AS INTEGER) AS line_number
FROM counter c;

CREATE VIEW atomic_event_value AS
SELECT cv.counter AS atomic_event, h.node_rank AS node, h.context_rank AS context, h.thread_rank AS thread,
    cv.sample_count AS sample_count, cv.maximum_value AS maximum_value, cv.minimum_value AS minimum_value,
    cv.mean_value AS mean_value, cv.standard_deviation AS standard_deviation
FROM counter_value cv JOIN thread h ON cv.thread = h.id;

CREATE VIEW atomic_location_profile AS
SELECT * FROM atomic_event_value WHERE thread >= 0;

CREATE VIEW atomic_total_summary AS
SELECT atomic_event, SUM(sample_count) AS sample_count, SUM(maximum_value) AS maximum_value,
    SUM(minimum_value) AS minimum_value, SUM(mean_value) AS mean_value, SUM(standard_deviation) AS standard_deviation
FROM atomic_location_profile GROUP BY atomic_event;

CREATE VIEW atomic_mean_summary AS
SELECT atomic_event, AVG(sample_count) AS sample_count, AVG(maximum_value) AS maximum_value,
    AVG(minimum_value) AS minimum_value, AVG(mean_value) AS mean_value, AVG(standard_deviation) AS standard_deviation
FROM atomic_location_profile GROUP BY atomic_event;
