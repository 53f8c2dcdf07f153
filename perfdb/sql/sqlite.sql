-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- TAUdb schema for SQLite, as Parallax creates it in an empty database. docs/FORMATS.md 7.3: the
-- PostgreSQL column set is the one logical schema in both dialects, with SQLite types (INTEGER PRIMARY
-- KEY AUTOINCREMENT, REAL, TEXT); the PostgreSQL-only analysis_* tables are left out.
-- Deviations from TAU's taudb.sql, all documented in perfdb/README.md:
-- * timer_call_data.calls/subroutines and counter_value.sample_count are REAL, not INT:
--   the model keeps calls as doubles (fractions after the algebra) and a round trip must be exact.
-- * The tables whose size scales with threads x events (timer_call_data, timer_value,
--   counter_value, secondary_metadata) carry no FOREIGN KEY constraints: PostgreSQL checks each
--   key with a per-row trigger (measured: 4.6 us a row, 15 s for one trial of 3.3 M cells), so
--   bulk uploads would be 5x slower. SQLite keeps the same logical schema. The uploader writes
--   those rows only with ids it created in the same transaction and deleteTrial removes them
--   explicitly; every other table keeps its keys.
-- * Extra indexes for loading and deleting one trial fast (marked "parallax").

CREATE TABLE schema_version (
    version INTEGER NOT NULL,
    description TEXT NOT NULL
);

CREATE TABLE data_source (
    id INTEGER UNIQUE NOT NULL,
    name TEXT NOT NULL,
    description TEXT
);

CREATE TABLE derived_thread_type (
    id INTEGER NOT NULL PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL
);

CREATE TABLE trial (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT,
    data_source INTEGER REFERENCES data_source(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    node_count INTEGER,
    contexts_per_node INTEGER,
    threads_per_context INTEGER,
    total_threads INTEGER
);

CREATE TABLE thread (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    trial INTEGER NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    node_rank INTEGER NOT NULL,
    context_rank INTEGER NOT NULL,
    thread_rank INTEGER NOT NULL,
    thread_index INTEGER NOT NULL
);

CREATE TABLE metric (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    trial INTEGER NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name TEXT NOT NULL,
    derived INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE timer (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    trial INTEGER NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name TEXT NOT NULL,
    short_name TEXT NOT NULL,
    source_file TEXT,
    line_number INTEGER,
    line_number_end INTEGER,
    column_number INTEGER,
    column_number_end INTEGER
);

CREATE TABLE timer_group (
    timer INTEGER REFERENCES timer(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    group_name TEXT NOT NULL
);

CREATE TABLE timer_parameter (
    timer INTEGER REFERENCES timer(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    parameter_name TEXT NOT NULL,
    parameter_value TEXT NOT NULL
);

CREATE TABLE timer_callpath (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    timer INTEGER NOT NULL REFERENCES timer(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    parent INTEGER REFERENCES timer_callpath(id) ON DELETE NO ACTION ON UPDATE NO ACTION
);

CREATE TABLE time_range (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    iteration_start INTEGER NOT NULL,
    iteration_end INTEGER,
    time_start INTEGER NOT NULL,
    time_end INTEGER
);

CREATE TABLE timer_call_data (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    timer_callpath INTEGER NOT NULL,
    thread INTEGER NOT NULL,
    calls REAL,
    subroutines REAL,
    time_range INTEGER
);

CREATE TABLE timer_value (
    timer_call_data INTEGER NOT NULL,
    metric INTEGER NOT NULL,
    inclusive_value REAL,
    exclusive_value REAL,
    inclusive_percent REAL,
    exclusive_percent REAL,
    sum_exclusive_squared REAL
);

CREATE TABLE counter (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    trial INTEGER NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name TEXT NOT NULL
);

CREATE TABLE counter_value (
    counter INTEGER NOT NULL,
    timer_callpath INTEGER,
    thread INTEGER NOT NULL,
    sample_count REAL,
    maximum_value REAL,
    minimum_value REAL,
    mean_value REAL,
    standard_deviation REAL
);

CREATE TABLE primary_metadata (
    trial INTEGER NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name TEXT NOT NULL,
    value TEXT
);

CREATE TABLE secondary_metadata (
    id TEXT NOT NULL PRIMARY KEY,
    trial INTEGER NOT NULL,
    thread INTEGER,
    timer_callpath INTEGER,
    time_range INTEGER,
    parent TEXT,
    name TEXT NOT NULL,
    value TEXT,
    is_array INTEGER DEFAULT 0
);

CREATE TABLE taudb_view (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parent INTEGER REFERENCES taudb_view(id) ON DELETE CASCADE ON UPDATE CASCADE,
    name TEXT NOT NULL,
    conjoin TEXT NOT NULL
);

CREATE TABLE taudb_view_parameter (
    taudb_view INTEGER NOT NULL REFERENCES taudb_view(id) ON DELETE CASCADE ON UPDATE CASCADE,
    table_name TEXT NOT NULL,
    column_name TEXT NOT NULL,
    operator TEXT NOT NULL,
    value TEXT NOT NULL
);

-- TAUdb's indexes (both dialects)
CREATE INDEX timer_trial_index ON timer (trial, name);
CREATE INDEX timer_group_index ON timer_group (timer, group_name);
CREATE INDEX timer_value_index ON timer_value (timer_call_data, metric);
CREATE INDEX counter_trial_index ON counter (trial, name);
CREATE INDEX counter_value_index ON counter_value (counter, thread);
CREATE INDEX primary_metadata_index ON primary_metadata (trial, name);
CREATE INDEX secondary_metadata_index ON secondary_metadata (trial, name, thread, parent);
-- TAUdb's PostgreSQL-only indexes, used on SQLite too (loading and deleting one trial), except
-- timer_call_data (timer_callpath): nothing Parallax does needs it, and keeping it up to date
-- costs more than the rest of an upload's call data together (measured: 6.8 s against 8.4 s for
-- 3.3 M cells with single-row inserts).
CREATE INDEX trial_name_index ON trial (name);
CREATE INDEX timer_name_index ON timer (name);
CREATE INDEX timer_callpath_parent ON timer_callpath (parent);
CREATE INDEX thread_trial ON thread (trial);
CREATE INDEX timer_call_data_thread ON timer_call_data (thread);
CREATE INDEX counter_name_index ON counter (name);
-- parallax: finding and deleting one trial's rows without scanning other trials
CREATE INDEX parallax_timer_callpath_timer ON timer_callpath (timer);
CREATE INDEX parallax_timer_parameter_timer ON timer_parameter (timer);
CREATE INDEX parallax_metric_trial ON metric (trial);
CREATE INDEX parallax_counter_value_thread ON counter_value (thread);
CREATE INDEX parallax_secondary_metadata_thread ON secondary_metadata (thread);
