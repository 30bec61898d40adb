# SPDX-License-Identifier: Apache-2.0
# Sums a gpumem report.json (docs/report-schema.md) into the per-kernel
# quantities Nsight Compute counts: global load/store requests (warp
# executions) and sectors, atomics, local memory, shared-memory wavefronts
# and branch divergence. Slots are looked up by name (docs/analyses.md).
# Sites are classified by the site table (space, load/store/atomic bits) and,
# for generic-space sites, by which counters they hit (wavefronts: shared;
# sectors: global or local, not separable; listed in "generic"). Depends on
# python3 only.
import glob
import json
import os

LOAD, STORE, ATOMIC, MEMINTR = 1 << 24, 1 << 25, 1 << 26, 1 << 27
SPACE = {0: "generic", 1: "global", 3: "shared", 4: "const", 5: "local", 101: "param"}


def num(v):
    return int(v, 0) if isinstance(v, str) else int(v)


def find_report(d):
    """The newest gpumem report (*.json with kernels and modules) under d."""
    best = None
    for f in glob.glob(os.path.join(d, "**", "*.json"), recursive=True):
        try:
            doc = json.load(open(f))
        except (OSError, ValueError):
            continue
        if isinstance(doc, dict) and doc.get("schema") == "gpumem-report":
            if best is None or os.path.getmtime(f) > best[0]:
                best = (os.path.getmtime(f), f, doc)
    return (best[1], best[2]) if best else (None, None)


def op_of(info):
    if info & ATOMIC:
        return "atom"
    return "st" if info & STORE else "ld"


def _add(t, key, v):
    t[key] = t.get(key, 0) + v


def _mem_site(t, site, vals):
    info = num(site.get("info", 0))
    space = SPACE.get(num(site.get("space", 0)), "other")
    op = op_of(info)
    if info & MEMINTR:
        _add(t, "memintr_sites_warps", vals.get("warps", 0))
    if space == "generic":
        if vals.get("wavefronts", 0) or vals.get("ideal_wavefronts", 0):
            space = "shared"
        elif vals.get("sectors", 0):
            _add(t, "generic_warps", vals.get("warps", 0))
    if space == "shared":
        _add(t, "shared_%s_wavefronts" % op, vals.get("wavefronts", 0))
        _add(t, "shared_%s_ideal_wavefronts" % op, vals.get("ideal_wavefronts", 0))
        _add(t, "shared_%s_warps" % op, vals.get("warps", 0))
        return
    if space in ("global", "local", "generic"):
        sp = "local" if space == "local" else "global"
        _add(t, "%s_%s_requests" % (sp, op), vals.get("warps", 0))
        _add(t, "%s_%s_sectors" % (sp, op), vals.get("sectors", 0))
        _add(t, "%s_%s_threads" % (sp, op), vals.get("threads", 0))
        w = info & 0xffff
        if w > 4 and op != "atom":   # wide accesses: the requests rule to check
            _add(t, "%s_%s_wide_warps" % (sp, op), vals.get("warps", 0))
        # requests if one were issued per 128 B of a full warp's data
        _add(t, "%s_%s_req128" % (sp, op), vals.get("warps", 0) * max(1, -(-32 * w // 128)))


def _branch_site(t, vals):
    _add(t, "branch_execs", vals.get("execs", 0))
    _add(t, "branch_divergent", vals.get("divergent", 0))


def kernel_totals(doc):
    """{mangled kernel name: {quantity: value}} summed over sites."""
    mods = {m["modid"]: m for m in doc.get("modules", [])}
    out = {}
    for k in doc.get("kernels", []):
        mod = mods.get(k.get("modid"), {})
        sites = {num(s["id"]): s for s in mod.get("sites", [])}
        slots = {c["name"]: c["slots"] for c in mod.get("counter_sets", [])}
        t = out.setdefault(k["name"], {"launches": 0})
        t["launches"] += num(k.get("launches", 0))
        for c in k.get("counters", []):
            if c["set"] not in ("coalescing", "divergence"):
                continue
            names = slots.get(c["set"], [])
            for e in c.get("sites", []):
                site = sites.get(num(e["site"]), {})
                vals = dict(zip(names, (num(v) for v in e["v"])))
                if c["set"] == "coalescing" and num(site.get("event", 0)) == 1:
                    _mem_site(t, site, vals)
                elif c["set"] == "divergence":
                    _branch_site(t, vals)
        t["sets"] = ",".join(sorted(c["set"] for c in k.get("counters", [])))
    for t in out.values():
        for op in ("ld", "st"):
            if "shared_%s_wavefronts" % op in t:
                t["shared_%s_conflicts" % op] = (t["shared_%s_wavefronts" % op]
                                                 - t["shared_%s_ideal_wavefronts" % op])
    return out
