# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""Trial -> Hatchet (LLNL's hatchet package). The graph is Parallax's call tree (algebra/calltree.h);
the DataFrame has the columns Hatchet's own TAU reader makes: name, time (exclusive), time (inc),
rank (the TAU node) and thread, one row per (call-tree node, rank, thread) that ran."""

import numpy as np
import pandas as pd


def hatchet_parts(trial, metric=None):
    """(roots, frame): roots in Hatchet's literal graph format (from_literal: a list of dicts with
    frame {name, type}, metrics {time, time (inc)} as means over all threads, children), each dict
    also carrying its node_id; frame: one row per (node_id, rank, thread) with name, time, time (inc)."""
    from . import _metric_index
    m = _metric_index(trial, metric)
    labels, events, parents = trial._t._call_tree()
    cells = trial.dataframe(metric=m, values=("exclusive", "inclusive"))
    node_of_event = np.full(len(trial._t._events()[0]) + 1, -1, dtype=np.int64)
    valid = events >= 0
    node_of_event[events[valid]] = np.nonzero(valid)[0]
    codes = cells.index.codes
    node = node_of_event[np.asarray(codes[3])]
    keep = node >= 0
    levels = cells.index.levels
    rank = np.asarray(levels[0])[np.asarray(codes[0])][keep]
    thread = np.asarray(levels[2])[np.asarray(codes[2])][keep]
    label_array = np.array(labels, dtype=object)
    frame = pd.DataFrame({
        "node_id": node[keep],
        "rank": rank,
        "thread": thread,
        "name": label_array[node[keep]],
        "time": cells["exclusive"].to_numpy()[keep],
        "time (inc)": cells["inclusive"].to_numpy()[keep],
    })
    threads = max(len(trial.threads), 1)
    sums = frame.groupby("node_id")[["time", "time (inc)"]].sum() / threads
    exclusive = sums["time"].reindex(range(len(labels)), fill_value=0.0).to_numpy()
    inclusive = sums["time (inc)"].reindex(range(len(labels)), fill_value=0.0).to_numpy()

    dicts = [{"frame": {"name": labels[i], "type": "function"},
              "metrics": {"time": float(exclusive[i]), "time (inc)": float(inclusive[i])},
              "node_id": i, "children": []} for i in range(len(labels))]
    roots = []
    for i, p in enumerate(parents):
        (roots if p < 0 else dicts[p]["children"]).append(dicts[i])
    return roots, frame


def to_graphframe(trial, metric=None):
    """A hatchet.GraphFrame (index node, rank, thread) built from hatchet_parts()."""
    try:
        import hatchet as ht
        from hatchet.frame import Frame
        from hatchet.graph import Graph
        from hatchet.node import Node
    except ImportError as e:
        raise ImportError("Trial.to_hatchet() needs the hatchet package (pip install llnl-hatchet); "
                          "Trial._hatchet_parts() gives the graph and the DataFrame without it") from e
    roots, frame = hatchet_parts(trial, metric)
    nodes = {}

    def build(d, parent, depth):
        n = Node(Frame(d["frame"]), parent, hnid=d["node_id"], depth=depth)
        nodes[d["node_id"]] = n
        for child in d["children"]:
            n.add_child(build(child, n, depth + 1))
        return n

    graph = Graph([build(r, None, 0) for r in roots])
    graph.enumerate_traverse()
    frame = frame.assign(node=frame["node_id"].map(nodes)).drop(columns=["node_id"])
    frame = frame.set_index(["node", "rank", "thread"]).sort_index()
    return ht.GraphFrame(graph, frame, exc_metrics=["time"], inc_metrics=["time (inc)"], default_metric="time")
