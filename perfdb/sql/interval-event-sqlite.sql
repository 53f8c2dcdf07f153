-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- interval_event on SQLite (with views.sql): one row per call-path node and group of its timer,
-- named by the node's own timer, as TAUdb's view names it. Not the whole call path as on
-- PostgreSQL: that needs WITH RECURSIVE, which SQLite before 3.8.3 (the driver TAU bundles is
-- 3.7.2) cannot parse, and a view it cannot parse makes it refuse the whole database. Unlike
-- TAUdb's view, nodes whose timer has no group are kept (group_name NULL).
CREATE VIEW interval_event AS
SELECT tc.id AS id, t.trial AS trial, t.name AS name, tg.group_name AS group_name, t.source_file AS source_file,
    t.line_number AS line_number, t.line_number_end AS line_number_end
FROM timer_callpath tc JOIN timer t ON tc.timer = t.id LEFT JOIN timer_group tg ON tg.timer = t.id;
