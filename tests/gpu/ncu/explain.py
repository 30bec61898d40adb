# SPDX-License-Identifier: Apache-2.0
# Causes of a gpumem / Nsight Compute difference, tested against the
# diagnostic counters rather than assumed: requests per instruction (wide
# accesses), instruction counts of the native vs instrumented build,
# predicated-off warps, generic-space and memory-intrinsic sites, the bank
# conflict model, and SASS vs LLVM branches. Each function returns one line.
# g: gm_totals quantities of a kernel; k: its summed ncu metrics.
# Depends on python3 only.


def _m(k, name):
    return k.get(name)


def _ratio(a, b):
    return f"{a / b:.3f}" if b else "n/a"


def _site_notes(g):
    out = []
    if g.get("generic_warps"):
        out.append(f"{g['generic_warps']:,} generic-space warp executions counted as global by gpumem")
    if g.get("memintr_sites_warps"):
        out.append(f"{g['memintr_sites_warps']:,} memory-intrinsic warp executions (struct copies: "
                   "one site per copy half, the backend may emit several instructions)")
    return out


def _requests(op, g, k):
    gm = g.get(f"global_{op}_requests", 0)
    req = _m(k, f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum")
    inst = _m(k, f"smsp__sass_inst_executed_op_global_{op}.sum")
    thr = _m(k, f"smsp__sass_thread_inst_executed_op_global_{op}_pred_on.sum")
    out = []
    if inst is None:
        out.append("no instruction count from ncu to test causes with")
    elif inst == gm:
        out.append(f"instructions equal gpumem's warps ({gm:,}); ncu sends {_ratio(req, inst)} requests "
                   "per instruction")
        if req == g.get(f"global_{op}_req128"):
            out.append(f"= one request per 128 B of a full warp's data ({g.get(f'global_{op}_wide_warps', 0):,} "
                       "warp executions of accesses wider than 4 B): gpumem counts one per warp execution")
    else:
        out.append(f"the native build executed {inst:,} global {op} instructions, gpumem saw {gm:,} warp "
                   f"executions in the instrumented build (requests {'=' if req == inst else '!='} instructions)")
        if thr is not None and thr == g.get(f"global_{op}_threads"):
            out.append(f"active threads agree ({thr:,}): the extra instructions ran with no lane on "
                       "(whole warps predicated off, or one access split into several instructions)")
        elif thr is not None:
            out.append(f"active threads differ too (ncu {thr:,}, gpumem {g.get(f'global_{op}_threads', 0):,}): "
                       "the builds do not execute the same accesses")
    return out + _site_notes(g)


def _sectors(op, g, k):
    gm, greq = g.get(f"global_{op}_sectors", 0), g.get(f"global_{op}_requests", 0)
    sec = _m(k, f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum")
    req = _m(k, f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum")
    out = [f"sectors per request gpumem {_ratio(gm, greq)}, ncu {_ratio(sec, req)}"]
    if req is not None and req != greq:
        out.append("requests differ as well (see that row)")
    if g.get("local_ld_requests") or g.get("local_st_requests"):
        out.append("the kernel has local-memory sites (counted separately by both)")
    return out + _site_notes(g)


def _wavefronts(op, g, k):
    gm = g.get(f"shared_{op}_wavefronts", 0)
    wf = _m(k, f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum")
    inst = _m(k, f"smsp__sass_inst_executed_op_shared_{op}.sum")
    conf = _m(k, f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum")
    warps, ideal = g.get(f"shared_{op}_warps", 0), g.get(f"shared_{op}_ideal_wavefronts", 0)
    out = []
    if inst is not None and inst != warps:
        out.append(f"shared {op} instructions: native {inst:,}, gpumem warp executions {warps:,}")
    if wf is not None and conf is not None:
        nideal = wf - conf
        if nideal == ideal:
            out.append(f"conflict-free wavefronts agree ({ideal:,}); bank conflicts gpumem {gm - ideal:,}, "
                       f"ncu {conf:,}: the conflict model differs")
        else:
            out.append(f"conflict-free wavefronts differ (gpumem {ideal:,}, ncu wavefronts - conflicts "
                       f"{nideal:,}): the per-access base (8/16 B phases, or ncu counting store "
                       "wavefronts differently) differs")
    return out + _site_notes(g)


def why(label, g, k):
    space, op, what = label.split()
    if what == "requests":
        out = _requests(op, g, k)
    elif what == "sectors":
        out = _sectors(op, g, k)
    else:
        out = _wavefronts(op, g, k)
    return "; ".join(out)


def why_branches(g, k, hands):
    nv = _m(k, "smsp__sass_branch_targets_threads_divergent.sum")
    binst = _m(k, "smsp__sass_inst_executed_op_branch.sum")
    out = [f"gpumem counts {g.get('branch_execs', 0):,} LLVM branch executions, ncu "
           f"{'n/a' if binst is None else f'{binst:,}'} SASS branch instructions: ptxas if-converts "
           "branches into predication, rotates loops and splits short-circuit tests, so the "
           "two count different branches"]
    same = [lab for h, lab in hands or [] if h == nv]
    if same:
        out.append(f"ncu equals the hand count ({', '.join(same)}), gpumem does not")
    elif hands:
        out.append("gpumem matches no hand count: check the instrumented build's branch sites "
                   "(gpumem-sitetab) against the PTX structure hand.py assumes")
    return "; ".join(out)
