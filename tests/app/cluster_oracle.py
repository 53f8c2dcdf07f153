#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""The independent computation tst_cli_cluster compares `parallax-cli cluster|correlate --json` with:
scikit-learn, SciPy and NumPy (Debian python3-sklearn, python3-scipy) on the matrix Parallax wrote
with --matrix FILE (docs/SEMANTICS.md §11).

    cluster_oracle.py cluster MATRIX.json RESULT.json [--ari-min A] [--inertia]
    cluster_oracle.py correlate MATRIX.json RESULT.json

Prints one line per check; exits 1 when one fails."""
import json
import sys
import warnings

import numpy as np
from scipy import stats
from sklearn.cluster import AgglomerativeClustering, KMeans
from sklearn.decomposition import PCA
from sklearn.metrics import adjusted_rand_score, silhouette_score

failures = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def nan_or(v):
    return np.nan if v is None else float(v)


def close(a, b, tol):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    same_nan = np.array_equal(np.isnan(a), np.isnan(b))
    diff = np.nanmax(np.abs(a - b)) if a.size and not np.all(np.isnan(a)) else 0.0
    return same_nan and diff <= tol, diff


def cluster(matrix, result, args):
    x = np.array(matrix["values"], dtype=float)
    n = x.shape[0]
    labels = np.array(result["labels"])
    k = result["k"]
    check(len(labels) == n and set(labels) == set(range(k)), f"labels: {n} threads in {k} clusters")
    # Centroids, sizes, SSE and representatives from the labels.
    for c, cl in enumerate(result["clusters"]):
        members = x[labels == c]
        centroid = members.mean(axis=0)
        ok, diff = close(cl["centroid"], centroid, 1e-9 * max(1.0, np.abs(centroid).max()))
        check(ok and cl["size"] == len(members), f"cluster {c}: size {len(members)}, centroid (max diff {diff:.3g})")
        d2 = ((members - centroid) ** 2).sum(axis=1)
        rep = x[cl["representativeIndex"]]
        check(labels[cl["representativeIndex"]] == c
              and abs(((rep - centroid) ** 2).sum() - d2.min()) <= 1e-9 * max(1.0, d2.min()),
              f"cluster {c}: representative #{cl['representativeIndex']} is a member nearest the centroid")
        check(abs(cl["sse"] - d2.sum()) <= 1e-9 * max(1.0, d2.sum()), f"cluster {c}: sse {cl['sse']:.6g}")
    # The method against scikit-learn.
    ari_min = float(args.get("--ari-min", "0.99"))
    if result["method"] == "kmeans":
        km = KMeans(n_clusters=k, n_init=10, random_state=0).fit(x)
        ari = adjusted_rand_score(km.labels_, labels)
        check(ari >= ari_min, f"k-means vs scikit-learn KMeans(k={k}, n_init=10): ARI {ari:.6f} >= {ari_min}")
        if "--inertia" in args:
            check(result["inertia"] <= km.inertia_ * (1 + 1e-9) + 1e-12,
                  f"inertia {result['inertia']:.9g} <= scikit-learn's {km.inertia_:.9g}")
    elif result["wardRows"] == n:
        ag = AgglomerativeClustering(n_clusters=k, linkage="ward").fit(x)
        ari = adjusted_rand_score(ag.labels_, labels)
        check(ari >= ari_min, f"Ward vs scikit-learn AgglomerativeClustering(ward, k={k}): ARI {ari:.6f} >= {ari_min}")
    # The silhouette, when Parallax took it on every thread.
    if result["silhouetteRows"] == n and k >= 2:
        s = silhouette_score(x, labels)
        check(abs(nan_or(result["silhouette"]) - s) <= 1e-9,
              f"silhouette {result['silhouette']} vs silhouette_score {s}")
    # k chosen by the silhouette: scikit-learn's clusterings over the same range choose the same k.
    if result["silhouettes"] and result["silhouetteRows"] == n and ari_min >= 0.99:
        theirs = {}
        for entry in result["silhouettes"]:
            kk = entry["k"]
            other = (KMeans(n_clusters=kk, n_init=10, random_state=0) if result["method"] == "kmeans"
                     else AgglomerativeClustering(n_clusters=kk, linkage="ward")).fit(x)
            theirs[kk] = silhouette_score(x, other.labels_)
        best = max(theirs, key=lambda kk: (theirs[kk], -kk))
        ours = {e["k"]: nan_or(e["silhouette"]) for e in result["silhouettes"]}
        check(best == k and abs(ours[k] - theirs[k]) <= 1e-9,
              f"k by silhouette: {k} (ours {ours}), scikit-learn's clusterings choose {best} ({theirs})")
    if "pca" in result:
        pca = PCA(n_components=2).fit(x)
        ok, diff = close(result["pca"]["explained"], pca.explained_variance_ratio_, 1e-9)
        check(ok, f"PCA explained variance ratio {result['pca']['explained']} (max diff {diff:.3g})")
        proj = pca.transform(x)
        scale = max(1.0, np.abs(proj).max())
        for axis, name in ((0, "x"), (1, "y")):
            ours = np.array(result["pca"][name], dtype=float)
            sign = 1.0 if np.dot(ours, proj[:, axis]) >= 0 else -1.0
            ok, diff = close(ours, sign * proj[:, axis], 1e-7 * scale)
            check(ok, f"PCA {name} coordinates up to sign (max diff {diff:.3g})")


def correlate(matrix, result):
    raw = np.array(matrix["raw"], dtype=float)
    total = np.array(matrix["total"], dtype=float)
    d = raw.shape[1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pearson = np.corrcoef(raw, rowvar=False).reshape(d, d)
        ranks = np.apply_along_axis(stats.rankdata, 0, raw)
        spearman = np.corrcoef(ranks, rowvar=False).reshape(d, d)
        if d >= 2:
            sp = stats.spearmanr(raw).correlation
            sp = np.array([[1.0]]) if np.isscalar(sp) and d == 1 else np.asarray(sp).reshape(d, d)
            ok, diff = close(sp[~np.isnan(spearman)], spearman[~np.isnan(spearman)], 1e-12)
            check(ok, f"rank Pearson = scipy.stats.spearmanr (max diff {diff:.3g})")
        pt = np.array([np.corrcoef(raw[:, c], total)[0, 1] for c in range(d)])
        st = np.array([stats.spearmanr(raw[:, c], total).correlation for c in range(d)])
    for name, ours, theirs in (("pearson", result["pearson"], pearson), ("spearman", result["spearman"], spearman),
                               ("pearsonTotal", result["pearsonTotal"], pt),
                               ("spearmanTotal", result["spearmanTotal"], st)):
        ours = np.array([[nan_or(v) for v in row] for row in ours]) if isinstance(ours[0], list) \
            else np.array([nan_or(v) for v in ours])
        # A constant column has no correlation (NaN in NumPy, null in Parallax); NumPy may give a
        # number for a column whose spread is rounding noise: compare where both are defined.
        both = ~np.isnan(ours) & ~np.isnan(theirs)
        diff = np.abs(ours[both] - theirs[both]).max() if both.any() else 0.0
        check(diff <= 1e-9 and both.sum() >= 0.5 * ours.size,
              f"{name}: {both.sum()} of {ours.size} defined, max |diff| {diff:.3g} <= 1e-9")


def main():
    mode, matrix_path, result_path = sys.argv[1:4]
    rest = sys.argv[4:]
    args = {}
    i = 0
    while i < len(rest):
        if rest[i] == "--ari-min":
            args[rest[i]] = rest[i + 1]
            i += 2
        else:
            args[rest[i]] = True
            i += 1
    with open(matrix_path) as f:
        matrix = json.load(f)
    with open(result_path) as f:
        result = json.load(f)
    if mode == "cluster":
        cluster(matrix, result, args)
    else:
        correlate(matrix, result)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
