-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- TAUdb's static rows (docs/FORMATS.md 7.1, 7.2), shared by both dialects. Run once, when the schema is created.
INSERT INTO schema_version (version, description) VALUES (2, 'Changes after Nov. 9, 2012 release');

INSERT INTO data_source (id, name, description) VALUES (0, 'ppk', 'ParaProf packed profile');
INSERT INTO data_source (id, name, description) VALUES (1, 'TAU profiles', 'TAU profile files');
INSERT INTO data_source (id, name, description) VALUES (2, 'DynaProf', 'DynaProf profiles');
INSERT INTO data_source (id, name, description) VALUES (3, 'mpiP', 'mpiP report');
INSERT INTO data_source (id, name, description) VALUES (4, 'HPM', 'HPM Toolkit profiles');
INSERT INTO data_source (id, name, description) VALUES (5, 'gprof', 'GNU gprof output');
INSERT INTO data_source (id, name, description) VALUES (6, 'psrun', 'PerfSuite psrun profiles');
INSERT INTO data_source (id, name, description) VALUES (7, 'pprof', 'TAU pprof.dat dump');
INSERT INTO data_source (id, name, description) VALUES (8, 'Cube', 'CUBE profiles');
INSERT INTO data_source (id, name, description) VALUES (9, 'HPCToolkit', 'HPCToolkit database');
INSERT INTO data_source (id, name, description) VALUES (10, 'SNAP', 'TAU snapshot profiles');
INSERT INTO data_source (id, name, description) VALUES (11, 'OMPP', 'ompP OpenMP profiles');
INSERT INTO data_source (id, name, description) VALUES (12, 'PERIXML', 'PERI XML data exchange format');
INSERT INTO data_source (id, name, description) VALUES (13, 'GPTL', 'General Purpose Timing Library');
INSERT INTO data_source (id, name, description) VALUES (14, 'Paraver', 'Paraver profiles');
INSERT INTO data_source (id, name, description) VALUES (15, 'IPM', 'Integrated Performance Monitoring');
INSERT INTO data_source (id, name, description) VALUES (16, 'Google', 'Google performance tools profiles');
INSERT INTO data_source (id, name, description) VALUES (17, 'Cube3', 'CUBE 3 profiles');
INSERT INTO data_source (id, name, description) VALUES (100, 'Gyro', 'Gyro self-timing profiles');
INSERT INTO data_source (id, name, description) VALUES (101, 'GAMESS', 'GAMESS self-timing profiles');
INSERT INTO data_source (id, name, description) VALUES (999, 'Other', 'Other profiles');

INSERT INTO derived_thread_type (id, name, description) VALUES (-1, 'MEAN', 'MEAN (nulls ignored)');
INSERT INTO derived_thread_type (id, name, description) VALUES (-2, 'TOTAL', 'TOTAL');
INSERT INTO derived_thread_type (id, name, description) VALUES (-3, 'STDDEV', 'STDDEV (nulls ignored)');
INSERT INTO derived_thread_type (id, name, description) VALUES (-4, 'MIN', 'MIN');
INSERT INTO derived_thread_type (id, name, description) VALUES (-5, 'MAX', 'MAX');
INSERT INTO derived_thread_type (id, name, description) VALUES (-6, 'MEAN', 'MEAN (nulls are 0 value)');
INSERT INTO derived_thread_type (id, name, description) VALUES (-7, 'STDDEV', 'STDDEV (nulls are 0 value)');

-- The seed view; sub-views break without its parameter (docs/FORMATS.md 7.2).
INSERT INTO taudb_view (parent, name, conjoin) VALUES (NULL, 'All Trials', 'and');
INSERT INTO taudb_view_parameter (taudb_view, table_name, column_name, operator, value)
    SELECT id, 'trial', 'total_threads', '>', '-1' FROM taudb_view WHERE name = 'All Trials';
