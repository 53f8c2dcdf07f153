-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- Parallax's own tables (schema version 1), for what TAUdb has no place for. Idempotent: run when a
-- database is created, by the migration to version 1, and before the first upload into a foreign
-- TAUdb. A trial with a parallax_trial row was written by Parallax. The keys cascade on delete, so
-- TAU's own tools can still delete a trial Parallax wrote.

-- Trial-level facts: JSON arrays of the group names in model order, the model's trial-wide
-- metadata keys in order, and the primary_metadata keys the upload added (Application,
-- Experiment, Parallax Upload Time) that are not part of the trial itself; the smallest and
-- largest timer_call_data id of the trial's real-thread cells, so that loading reads one id range.
CREATE TABLE IF NOT EXISTS parallax_trial (
    trial INTEGER NOT NULL PRIMARY KEY REFERENCES trial(id) ON DELETE CASCADE,
    call_data_first INTEGER,
    call_data_last INTEGER,
    groups TEXT NOT NULL,
    metadata_keys TEXT NOT NULL,
    hidden_keys TEXT NOT NULL
);

-- Metric unit and derived-metric details (TAUdb's metric has only name and derived).
CREATE TABLE IF NOT EXISTS parallax_metric (
    metric INTEGER NOT NULL PRIMARY KEY REFERENCES metric(id) ON DELETE CASCADE,
    unit TEXT NOT NULL,
    expression TEXT,
    higher_is_better INTEGER NOT NULL DEFAULT 0
);

-- One row per event of the model, on its call-path node: position (the event id), the raw name
-- when it differs from the canonical one, and the exact group list (JSON array) - TAUdb keeps
-- groups on flat timers only.
CREATE TABLE IF NOT EXISTS parallax_event (
    timer_callpath INTEGER NOT NULL PRIMARY KEY REFERENCES timer_callpath(id) ON DELETE CASCADE,
    trial INTEGER NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    raw_name TEXT,
    groups TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS parallax_event_trial ON parallax_event (trial, position);

-- Raw user-event names that differ from the canonical counter.name.
CREATE TABLE IF NOT EXISTS parallax_counter (
    counter INTEGER NOT NULL PRIMARY KEY REFERENCES counter(id) ON DELETE CASCADE,
    raw_name TEXT NOT NULL
);

-- Explicit user-event standard deviations (schema 4). counter_value.standard_deviation holds the
-- sum of squares, as TAU's loader writes it and TAU's reader reads it (docs/FORMATS.md 7.2); an algebra
-- result (a diff, say: docs/SEMANTICS.md 4.3) carries deviations that no sum of squares gives. For
-- each real thread that has such deviations, every one of its counter_value rows has its
-- deviation here. A bulk table: no foreign keys, like counter_value.
CREATE TABLE IF NOT EXISTS parallax_counter_deviation (
    counter INTEGER NOT NULL,
    thread INTEGER NOT NULL,
    standard_deviation REAL
);
CREATE INDEX IF NOT EXISTS parallax_counter_deviation_index ON parallax_counter_deviation (counter, thread);
CREATE INDEX IF NOT EXISTS parallax_counter_deviation_thread ON parallax_counter_deviation (thread);
