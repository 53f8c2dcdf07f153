-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- interval_event on PostgreSQL (with views.sql): one row per call-path node and group of its timer,
-- named by the whole call path ("a => b => c") as the legacy PerfDMF interval_event was; TAUdb's
-- own view gives the leaf timer's name and drops nodes whose timer has no group.
CREATE VIEW interval_event AS
WITH RECURSIVE callpath (id, trial, name, timer) AS (
    SELECT tc.id, t.trial, CAST(t.name AS TEXT), t.id
    FROM timer_callpath tc JOIN timer t ON tc.timer = t.id
    WHERE tc.parent IS NULL
    UNION ALL
    SELECT tc.id, p.trial, p.name || ' => ' || t.name, t.id
    FROM timer_callpath tc JOIN callpath p ON tc.parent = p.id JOIN timer t ON tc.timer = t.id
)
SELECT cp.id AS id, cp.trial AS trial, cp.name AS name, tg.group_name AS group_name, t.source_file AS source_file,
    t.line_number AS line_number, t.line_number_end AS line_number_end
FROM callpath cp JOIN timer t ON cp.timer = t.id LEFT JOIN timer_group tg ON tg.timer = t.id;
