-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- TAUdb schema for PostgreSQL (docs/FORMATS.md 7.1-7.2), as Parallax creates it in an empty database.
-- Deviations from TAU's taudb.sql, all documented in perfdb/README.md:
-- * timer_call_data.calls/subroutines and counter_value.sample_count are DOUBLE PRECISION, not INT:
--   the model keeps calls as doubles (fractions after the algebra) and a round trip must be exact.
-- * The tables whose size scales with threads x events (timer_call_data, timer_value,
--   counter_value, secondary_metadata) carry no FOREIGN KEY constraints: PostgreSQL checks each
--   key with a per-row trigger (measured: 4.6 us a row, 15 s for one trial of 3.3 M cells), so
--   bulk uploads would be 5x slower. The uploader writes those rows only with ids it created in the
--   same transaction and deleteTrial removes them explicitly; every other table keeps its keys.
-- * Extra indexes for loading and deleting one trial fast (marked "parallax").

CREATE TABLE schema_version (
    version INT NOT NULL,
    description VARCHAR NOT NULL
);

CREATE TABLE data_source (
    id INT UNIQUE NOT NULL,
    name VARCHAR NOT NULL,
    description VARCHAR
);

CREATE TABLE derived_thread_type (
    id INT NOT NULL PRIMARY KEY,
    name VARCHAR NOT NULL,
    description VARCHAR NOT NULL
);

CREATE TABLE trial (
    id SERIAL NOT NULL PRIMARY KEY,
    name VARCHAR,
    data_source INT REFERENCES data_source(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    node_count INT,
    contexts_per_node INT,
    threads_per_context INT,
    total_threads INT
);

CREATE TABLE thread (
    id SERIAL NOT NULL PRIMARY KEY,
    trial INT NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    node_rank INT NOT NULL,
    context_rank INT NOT NULL,
    thread_rank INT NOT NULL,
    thread_index INT NOT NULL
);

CREATE TABLE metric (
    id SERIAL NOT NULL PRIMARY KEY,
    trial INT NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name VARCHAR NOT NULL,
    derived BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE timer (
    id SERIAL NOT NULL PRIMARY KEY,
    trial INT NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name VARCHAR NOT NULL,
    short_name VARCHAR NOT NULL,
    source_file VARCHAR,
    line_number INT,
    line_number_end INT,
    column_number INT,
    column_number_end INT
);

CREATE TABLE timer_group (
    timer INT REFERENCES timer(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    group_name VARCHAR NOT NULL
);

CREATE TABLE timer_parameter (
    timer INT REFERENCES timer(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    parameter_name VARCHAR NOT NULL,
    parameter_value VARCHAR NOT NULL
);

CREATE TABLE timer_callpath (
    id SERIAL NOT NULL PRIMARY KEY,
    timer INT NOT NULL REFERENCES timer(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    parent INT REFERENCES timer_callpath(id) ON DELETE NO ACTION ON UPDATE NO ACTION
);

CREATE TABLE time_range (
    id SERIAL NOT NULL PRIMARY KEY,
    iteration_start INT NOT NULL,
    iteration_end INT,
    time_start BIGINT NOT NULL,
    time_end BIGINT
);

CREATE TABLE timer_call_data (
    id SERIAL NOT NULL PRIMARY KEY,
    timer_callpath INT NOT NULL,
    thread INT NOT NULL,
    calls DOUBLE PRECISION,
    subroutines DOUBLE PRECISION,
    time_range INT
);

CREATE TABLE timer_value (
    timer_call_data INT NOT NULL,
    metric INT NOT NULL,
    inclusive_value DOUBLE PRECISION,
    exclusive_value DOUBLE PRECISION,
    inclusive_percent DOUBLE PRECISION,
    exclusive_percent DOUBLE PRECISION,
    sum_exclusive_squared DOUBLE PRECISION
);

CREATE TABLE counter (
    id SERIAL NOT NULL PRIMARY KEY,
    trial INT NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name VARCHAR NOT NULL
);

CREATE TABLE counter_value (
    counter INT NOT NULL,
    timer_callpath INT,
    thread INT NOT NULL,
    sample_count DOUBLE PRECISION,
    maximum_value DOUBLE PRECISION,
    minimum_value DOUBLE PRECISION,
    mean_value DOUBLE PRECISION,
    standard_deviation DOUBLE PRECISION
);

CREATE TABLE primary_metadata (
    trial INT NOT NULL REFERENCES trial(id) ON DELETE NO ACTION ON UPDATE NO ACTION,
    name VARCHAR NOT NULL,
    value VARCHAR
);

CREATE TABLE secondary_metadata (
    id VARCHAR NOT NULL PRIMARY KEY,
    trial INT NOT NULL,
    thread INT,
    timer_callpath INT,
    time_range INT,
    parent VARCHAR,
    name VARCHAR NOT NULL,
    value VARCHAR,
    is_array BOOLEAN DEFAULT FALSE
);

CREATE TABLE taudb_view (
    id SERIAL NOT NULL PRIMARY KEY,
    parent INTEGER REFERENCES taudb_view(id) ON DELETE CASCADE ON UPDATE CASCADE,
    name VARCHAR NOT NULL,
    conjoin VARCHAR NOT NULL
);

CREATE TABLE taudb_view_parameter (
    taudb_view INTEGER NOT NULL REFERENCES taudb_view(id) ON DELETE CASCADE ON UPDATE CASCADE,
    table_name VARCHAR NOT NULL,
    column_name VARCHAR NOT NULL,
    operator VARCHAR NOT NULL,
    value VARCHAR NOT NULL
);

CREATE TABLE analysis_settings (
    id SERIAL NOT NULL PRIMARY KEY,
    taudb_view INTEGER NULL REFERENCES taudb_view(id) ON DELETE CASCADE ON UPDATE CASCADE,
    application INTEGER NULL,
    experiment INTEGER NULL,
    trial INTEGER NULL REFERENCES trial(id) ON DELETE CASCADE ON UPDATE CASCADE,
    metric INTEGER NULL REFERENCES metric(id) ON DELETE CASCADE ON UPDATE CASCADE,
    method VARCHAR(255) NOT NULL,
    dimension_reduction VARCHAR(255) NOT NULL,
    normalization VARCHAR(255) NOT NULL
);

CREATE TABLE analysis_result (
    id SERIAL NOT NULL PRIMARY KEY,
    analysis_settings INTEGER NOT NULL REFERENCES analysis_settings(id) ON DELETE CASCADE ON UPDATE CASCADE,
    description VARCHAR(255) NOT NULL,
    thumbnail_size INTEGER NULL,
    image_size INTEGER NULL,
    thumbnail BYTEA NULL,
    image BYTEA NULL,
    result_type INTEGER NOT NULL
);

-- TAUdb's indexes (both dialects)
CREATE INDEX timer_trial_index ON timer (trial, name);
CREATE INDEX timer_group_index ON timer_group (timer, group_name);
CREATE INDEX timer_value_index ON timer_value (timer_call_data, metric);
CREATE INDEX counter_trial_index ON counter (trial, name);
CREATE INDEX counter_value_index ON counter_value (counter, thread);
CREATE INDEX primary_metadata_index ON primary_metadata (trial, name);
CREATE INDEX secondary_metadata_index ON secondary_metadata (trial, name, thread, parent);
-- TAUdb's PostgreSQL-only indexes
CREATE INDEX trial_name_index ON trial (name);
CREATE INDEX timer_name_index ON timer (name);
CREATE INDEX timer_callpath_parent ON timer_callpath (parent);
CREATE INDEX thread_trial ON thread (trial);
CREATE INDEX timer_call_data_timer_callpath ON timer_call_data (timer_callpath);
CREATE INDEX timer_call_data_thread ON timer_call_data (thread);
CREATE INDEX counter_name_index ON counter (name);
-- parallax: finding and deleting one trial's rows without scanning other trials
CREATE INDEX parallax_timer_callpath_timer ON timer_callpath (timer);
CREATE INDEX parallax_timer_parameter_timer ON timer_parameter (timer);
CREATE INDEX parallax_metric_trial ON metric (trial);
CREATE INDEX parallax_counter_value_thread ON counter_value (thread);
CREATE INDEX parallax_secondary_metadata_thread ON secondary_metadata (thread);
