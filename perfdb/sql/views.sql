-- TAUdb's compatibility views, which emulate the legacy PerfDMF tables (FORMATS.md 7.2). TAUdb
-- defines them on PostgreSQL only; Parallax creates the same views on SQLite too (the SQL is
-- portable). Differences from TAUdb, on purpose:
-- * inclusive_per_call is NULL where calls = 0 (PostgreSQL would fail the whole query on a
--   division by zero; Parallax keeps present cells with 0 calls).
-- * atomic_mean_summary selects thread = -1; TAUdb's "thread >= -1" also returns every real thread.

CREATE VIEW interval_event (id, trial, name, group_name, source_file, line_number, line_number_end) AS
WITH RECURSIVE callpath (id, trial, name, timer) AS (
    SELECT tc.id, t.trial, CAST(t.name AS TEXT), t.id
    FROM timer_callpath tc JOIN timer t ON tc.timer = t.id
    WHERE tc.parent IS NULL
    UNION ALL
    SELECT tc.id, p.trial, p.name || ' => ' || t.name, t.id
    FROM timer_callpath tc JOIN callpath p ON tc.parent = p.id JOIN timer t ON tc.timer = t.id
)
SELECT cp.id, cp.trial, cp.name, tg.group_name, t.source_file, t.line_number, t.line_number_end
FROM callpath cp JOIN timer t ON cp.timer = t.id LEFT JOIN timer_group tg ON tg.timer = t.id;

CREATE VIEW interval_event_value (interval_event, node, context, thread, metric, inclusive_percentage, inclusive,
    exclusive_percentage, exclusive, call, subroutines, inclusive_per_call, sum_exclusive_squared) AS
SELECT tcd.timer_callpath, h.node_rank, h.context_rank, h.thread_rank, tv.metric, tv.inclusive_percent,
    tv.inclusive_value, tv.exclusive_percent, tv.exclusive_value, tcd.calls, tcd.subroutines,
    tv.inclusive_value / NULLIF(tcd.calls, 0), tv.sum_exclusive_squared
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

CREATE VIEW atomic_event (id, trial, name, group_name, source_file, line_number) AS
SELECT c.id, c.trial, c.name, CAST(NULL AS TEXT), CAST(NULL AS TEXT), CAST(NULL AS INTEGER)
FROM counter c;

CREATE VIEW atomic_event_value (atomic_event, node, context, thread, sample_count, maximum_value, minimum_value,
    mean_value, standard_deviation) AS
SELECT cv.counter, h.node_rank, h.context_rank, h.thread_rank, cv.sample_count, cv.maximum_value, cv.minimum_value,
    cv.mean_value, cv.standard_deviation
FROM counter_value cv JOIN thread h ON cv.thread = h.id;

CREATE VIEW atomic_location_profile AS
SELECT * FROM atomic_event_value WHERE thread >= 0;

CREATE VIEW atomic_total_summary AS
SELECT atomic_event, sample_count, maximum_value, minimum_value, mean_value, standard_deviation
FROM atomic_event_value WHERE thread = -2;

CREATE VIEW atomic_mean_summary AS
SELECT atomic_event, sample_count, maximum_value, minimum_value, mean_value, standard_deviation
FROM atomic_event_value WHERE thread = -1;
