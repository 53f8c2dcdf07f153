#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: 2026 Parallax developers
"""Writes mpiP 3.4.1-style text reports whose numbers are internally consistent.

No licensed real report can be shipped, so the fixtures in this folder are generated here. The
layout follows FORMATS.md 6.2 (written from a real mpiP 3.4.1 report) and mpiP's report.c: the
`@ key : value` header, then `@--- <title> ---` sections with the column headers and printf
formats mpiP uses (times and sizes as %.3g, percentages as %.2f). Each per-rank statistics row
holds Count/Max/Mean/Min of one call site on one rank; the `*` rows, the MPI Time table, the
aggregate top-twenty tables and the percentages are all computed from those rows.

  generate_mpip.py fixtures            rewrite heat2d.4.12345.1.mpiP and allreduce.1.4242.1.mpiP here
  generate_mpip.py large R S OUT       a synthetic report with R ranks and S call sites (bench)
"""
import os
import random
import sys

RULE = "-" * 75


def section(title):
    head = "@--- " + title + " "
    return [RULE, head + "-" * max(3, 75 - len(head)), RULE]


def g(v, width):
    return ("%" + str(width) + ".3g") % v


def report(command, hosts, sites, stats, sent, io, app_time, start, stop):
    """sites: list of (id, [(file_or_address, line_or_None, function)...], call), level 0 first.
    stats: {(site, rank): (count, max_ms, mean_ms, min_ms)}; sent/io: {(site, rank): (count, max, mean, min)}."""
    ranks = sorted(hosts)
    out = ["@ mpiP", "@ Command : " + command + " ", "@ Version                  : 3.4.1",
           "@ MPIP Build date          : Jun  3 2019, 10:12:44",
           "@ Start time               : " + start, "@ Stop time                : " + stop,
           "@ Timer Used               : PMPI_Wtime", "@ MPIP env var             : -k 2",
           "@ Collector Rank           : 0", "@ Collector PID            : 31822",
           "@ Final Output Dir         : .", "@ Report generation        : Single collector task"]
    for r in ranks:
        out.append("@ MPI Task Assignment      : %d %s" % (r, hosts[r]))
    out.append("")
    # Times as the reader will see them: Count x printed Mean.
    total = {}
    for (s, r), (c, mx, mean, mn) in stats.items():
        total[(s, r)] = c * mean
    mpi_time = {r: sum(v for (s, rr), v in total.items() if rr == r) / 1000.0 for r in ranks}
    out += section("MPI Time (seconds)")
    out.append("Task    AppTime    MPITime     MPI%")
    for r in ranks:
        out.append("%4d %10.3g %10.3g %8.2f" % (r, app_time[r], mpi_time[r], 100 * mpi_time[r] / app_time[r]))
    app_all = sum(app_time.values())
    mpi_all = sum(mpi_time.values())
    out.append("%4s %10.3g %10.3g %8.2f" % ("*", app_all, mpi_all, 100 * mpi_all / app_all))
    out += section("Callsites: %d" % len(sites))
    out.append(" ID Lev File/Address        Line Parent_Funct             MPI_Call")
    for sid, frames, call in sites:
        for lev, (where, line, func) in enumerate(frames):
            name = call if lev == 0 else ""
            if line is None:
                out.append(("%3d %3d %-19s %4s %-24s %s" % (sid, lev, where, "", func, name)).rstrip())
            else:
                out.append(("%3d %3d %-19s %4d %-24s %s" % (sid, lev, where, line, func, name)).rstrip())
    call_of = {sid: call for sid, frames, call in sites}
    site_total = {}
    for (s, r), v in total.items():
        site_total[s] = site_total.get(s, 0.0) + v
    out += section("Aggregate Time (top twenty, descending, milliseconds)")
    out.append("Call                 Site       Time    App%    MPI%     COV")
    for s in sorted(site_total, key=lambda s: -site_total[s])[:20]:
        per_rank = [total.get((s, r), 0.0) for r in ranks]
        mean = sum(per_rank) / len(per_rank)
        var = sum((x - mean) ** 2 for x in per_rank) / max(1, len(per_rank) - 1)
        cov = (var ** 0.5) / mean if mean else 0.0
        out.append("%-20s %4d %10.3g %7.2f %7.2f %7.2f" % (call_of[s], s, site_total[s],
                   100 * site_total[s] / 1000 / app_all, 100 * site_total[s] / 1000 / mpi_all, cov))

    def aggregate_sizes(title, label, table):
        out.extend(section(title))
        out.append("Call                 Site      Count      Total       Avrg  %s" % label)
        sums = {}
        for (s, r), (c, mx, mean, mn) in table.items():
            cs, ts = sums.get(s, (0, 0.0))
            sums[s] = (cs + c, ts + c * mean)
        grand = sum(t for c, t in sums.values())
        for s in sorted(sums, key=lambda s: -sums[s][1])[:20]:
            c, t = sums[s]
            out.append("%-20s %4d %10.3g %10.3g %10.3g %6.2f" % (call_of[s], s, c, t, t / c, 100 * t / grand))

    if sent:
        aggregate_sizes("Aggregate Sent Message Size (top twenty, descending, bytes)", "Sent%", sent)
    if io:
        aggregate_sizes("Aggregate I/O Size (top twenty, descending, bytes)", " I/O%", io)
    rows = sum(1 for _ in stats)
    out += section("Callsite Time statistics (all, milliseconds): %d" % rows)
    out.append("Name              Site Rank  Count      Max     Mean      Min   App%   MPI%")
    by_site = sorted({s for s, r in stats}, key=lambda s: (call_of[s], s))
    for i, s in enumerate(by_site):
        if i:
            out.append("")
        cs = ts = 0
        mx_all, mn_all = 0.0, float("inf")
        for r in ranks:
            if (s, r) not in stats:
                continue
            c, mx, mean, mn = stats[(s, r)]
            t = total[(s, r)]
            out.append("%-17s %4d %4d %6d %8s %8s %8s %6.2f %6.2f" % (call_of[s], s, r, c, g(mx, 8), g(mean, 8), g(mn, 8),
                       100 * t / 1000 / app_time[r], 100 * t / 1000 / mpi_time[r] if mpi_time[r] else 0))
            cs += c
            ts += t
            mx_all = max(mx_all, mx)
            mn_all = min(mn_all, mn)
        out.append("%-17s %4d %4s %6d %8s %8s %8s %6.2f %6.2f" % (call_of[s], s, "*", cs, g(mx_all, 8), g(ts / cs, 8),
                   g(mn_all, 8), 100 * ts / 1000 / app_all, 100 * ts / 1000 / mpi_all))

    def size_stats(title, table):
        out.extend(section(title))
        out.append("Name              Site Rank   Count       Max      Mean       Min       Sum")
        sizes_sites = sorted({s for s, r in table}, key=lambda s: (call_of[s], s))
        for i, s in enumerate(sizes_sites):
            if i:
                out.append("")
            cs = ts = 0
            mx_all, mn_all = 0.0, float("inf")
            for r in ranks:
                if (s, r) not in table:
                    continue
                c, mx, mean, mn = table[(s, r)]
                out.append("%-17s %4d %4d %7d %9s %9s %9s %9s" % (call_of[s], s, r, c, g(mx, 9), g(mean, 9), g(mn, 9),
                           g(c * mean, 9)))
                cs += c
                ts += c * mean
                mx_all = max(mx_all, mx)
                mn_all = min(mn_all, mn)
            out.append("%-17s %4d %4s %7d %9s %9s %9s %9s" % (call_of[s], s, "*", cs, g(mx_all, 9), g(ts / cs, 9),
                       g(mn_all, 9), g(ts, 9)))

    if sent:
        size_stats("Callsite Message Sent statistics (all, sent bytes)", sent)
    if io:
        size_stats("Callsite I/O statistics (all, I/O bytes)", io)
    out += section("End of Report")
    out.append(RULE)
    return "\n".join(out) + "\n"


def timing(rng, count, mean_ms):
    """(count, max, mean, min) with mean already rounded as mpiP prints it."""
    mean = float("%.3g" % mean_ms)
    lo = float("%.3g" % (mean * rng.uniform(0.05, 0.6)))
    hi = float("%.3g" % (mean * rng.uniform(1.2, 6.0))) if count > 1 else mean
    if count == 1:
        lo = mean
    return (count, hi, mean, lo)


def sizes(count, size):
    return (count, size, size, size)


def heat2d():
    rng = random.Random(20240611)
    ranks = [0, 1, 2, 3]
    hosts = {0: "node017", 1: "node017", 2: "node018", 3: "node018"}
    libc = ("0x7f3a2c23d0b3", None, "[unknown]")
    step = ("heat2d.c", 210, "timestep")
    ckpt = ("heat2d.c", 318, "main")
    sites = [
        (1, [("heat2d.c", 120, "exchange_halo"), step], "Isend"),
        (2, [("heat2d.c", 124, "exchange_halo"), step], "Irecv"),
        (3, [("heat2d.c", 131, "exchange_halo"), step], "Waitall"),
        (4, [("heat2d.c", 228, "timestep"), ("heat2d.c", 305, "main")], "Allreduce"),
        (5, [("heat2d.c", 288, "main"), libc], "Bcast"),
        (6, [("heat2d.c", 292, "main"), libc], "Barrier"),
        (7, [("io.c", 45, "write_checkpoint"), ckpt], "Reduce"),
        (8, [("io.c", 52, "write_checkpoint"), ckpt], "Gather"),
        (9, [("heat2d.c", 140, "exchange_halo"), step], "Isend"),
        (10, [("heat2d.c", 332, "main"), libc], "Allreduce"),
        (11, [("io.c", 60, "write_checkpoint"), ckpt], "File_write_at"),
    ]
    steps = 2000
    stats, sent, io = {}, {}, {}
    halo = 8 * 4096  # one row of doubles
    for r in ranks:
        left, right = r > 0, r < 3
        n_send = steps * (int(left) + int(right))
        if left:
            stats[(1, r)] = timing(rng, steps, rng.uniform(0.004, 0.006))
            sent[(1, r)] = sizes(steps, halo)
        if right:
            stats[(9, r)] = timing(rng, steps, rng.uniform(0.004, 0.006))
            sent[(9, r)] = sizes(steps, halo)
        stats[(2, r)] = timing(rng, n_send, rng.uniform(0.002, 0.003))
        stats[(3, r)] = timing(rng, steps, rng.uniform(0.3, 0.9) * (1.6 if r in (1, 2) else 1.0))
        stats[(4, r)] = timing(rng, steps, rng.uniform(0.05, 0.25))
        sent[(4, r)] = sizes(steps, 8)
        stats[(5, r)] = timing(rng, 1, rng.uniform(0.5, 4.0) if r else 0.21)
        sent[(5, r)] = sizes(1, 4 * 1024 * 1024)
        stats[(6, r)] = timing(rng, 2, rng.uniform(1.0, 30.0))
        stats[(7, r)] = timing(rng, 20, rng.uniform(0.2, 0.6))
        sent[(7, r)] = sizes(20, 16)
        stats[(8, r)] = timing(rng, 20, rng.uniform(5.0, 12.0) if r == 0 else rng.uniform(0.5, 1.5))
        sent[(8, r)] = sizes(20, 1024 * 1024)
        stats[(10, r)] = timing(rng, 1, rng.uniform(0.02, 0.08))
        sent[(10, r)] = sizes(1, 16)
        stats[(11, r)] = timing(rng, 20, rng.uniform(20.0, 45.0))
        io[(11, r)] = sizes(20, 4 * 1024 * 1024)
    app = {r: round(rng.uniform(12.3, 12.6), 3) for r in ranks}
    return report("./heat2d -n 4096 -steps 2000", hosts, sites, stats, sent, io, app,
                  "2024 06 11 09:41:07", "2024 06 11 09:41:20")


def allreduce():
    rng = random.Random(7)
    sites = [
        (1, [("ar.c", 31, "main")], "Bcast"),
        (2, [("ar.c", 40, "main")], "Allreduce"),
        (3, [("ar.c", 47, "main")], "Barrier"),
    ]
    stats = {(1, 0): (1, 0.0123, 0.0123, 0.0123), (2, 0): timing(rng, 100, 0.0042), (3, 0): (1, 0.0021, 0.0021, 0.0021)}
    sent = {(1, 0): sizes(1, 1024), (2, 0): sizes(100, 8)}
    return report("./ar", {0: "laptop"}, sites, stats, sent, {}, {0: 0.153}, "2024 06 12 14:02:11",
                  "2024 06 12 14:02:11")


def large(ranks, nsites, path):
    rng = random.Random(ranks * 1000 + nsites)
    calls = ["Send", "Recv", "Isend", "Irecv", "Wait", "Waitall", "Allreduce", "Bcast", "Reduce", "Barrier",
             "Alltoall", "Gather", "Scatter", "Allgather", "Sendrecv"]
    funcs = ["solve_%d" % i for i in range(40)]
    sites = []
    for s in range(1, nsites + 1):
        f = funcs[s % len(funcs)]
        sites.append((s, [("solver%d.c" % (s % 7), 100 + 3 * s, f), ("driver.c", 50 + s % 40, "run_step"),
                          ("main.c", 12, "main")], calls[s % len(calls)]))
    stats, sent = {}, {}
    for r in range(ranks):
        for s in range(1, nsites + 1):
            if (s * 7 + r) % 11 == 0:
                continue  # not every rank calls every site
            c = 1 + (s * 13 + r) % 500
            stats[(s, r)] = timing(rng, c, rng.uniform(0.001, 2.0))
            if sites[s - 1][2] not in ("Recv", "Irecv", "Wait", "Waitall", "Barrier"):
                sent[(s, r)] = sizes(c, 8 << (s % 12))
    hosts = {r: "nid%05d" % (r // 32) for r in range(ranks)}
    app = {r: 900.0 + rng.uniform(0, 5) for r in range(ranks)}
    with open(path, "w") as f:
        f.write(report("./bigapp", hosts, sites, stats, sent, {}, app, "2024 06 13 01:00:00", "2024 06 13 01:15:05"))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) == 2 and sys.argv[1] == "fixtures":
        with open(os.path.join(here, "heat2d.4.12345.1.mpiP"), "w") as f:
            f.write(heat2d())
        with open(os.path.join(here, "allreduce.1.4242.1.mpiP"), "w") as f:
            f.write(allreduce())
    elif len(sys.argv) == 5 and sys.argv[1] == "large":
        large(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
