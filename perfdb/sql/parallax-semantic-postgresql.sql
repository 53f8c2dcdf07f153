-- SPDX-License-Identifier: GPL-3.0-or-later
-- SPDX-FileCopyrightText: 2026 Parallax developers
-- Parallax schema version 3: SEAA semantic models (docs/SEMANTICS.md 5.6) stored in the database, and
-- which trials they are attached to. Idempotent: run when a database is created, by the migration
-- to version 3, and before the first Parallax write into a foreign TAUdb (with the other side
-- tables). perfdb does not parse models (it may not link the algebra): `json` is the model file
-- as the application validated it.

-- One row per version of a named model. Versions are immutable: saving a model under an existing
-- name adds version MAX + 1.
CREATE TABLE IF NOT EXISTS parallax_semantic_model (
    id SERIAL NOT NULL PRIMARY KEY,
    name VARCHAR NOT NULL,
    version INT NOT NULL,
    json TEXT NOT NULL,
    created TIMESTAMP WITH TIME ZONE NOT NULL,
    comment VARCHAR,
    UNIQUE (name, version)
);

-- The models attached to a trial: its semantic profile is computed with them on load. Deleting a
-- trial removes its attachments (also when TAU's own tools delete it); a model version that is
-- attached cannot be deleted until it is detached (the application's force option detaches first).
CREATE TABLE IF NOT EXISTS parallax_trial_semantic_model (
    trial INT NOT NULL REFERENCES trial(id) ON DELETE CASCADE,
    model INT NOT NULL REFERENCES parallax_semantic_model(id) ON DELETE NO ACTION,
    attached TIMESTAMP WITH TIME ZONE NOT NULL,
    PRIMARY KEY (trial, model)
);
CREATE INDEX IF NOT EXISTS parallax_trial_semantic_model_model ON parallax_trial_semantic_model (model);
