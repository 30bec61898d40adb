# SPDX-License-Identifier: Apache-2.0
# The Nsight Compute metrics tests/gpu/ncu_compare.sh collects and what each
# is compared with (H100, ncu of CUDA 13). REQUIRED rows must match gpumem
# exactly; DIAG rows explain a difference. Each row: (label, gpumem
# quantity (gm_totals.py key), [ncu metrics summed]). Depends on nothing.

REQUIRED = [
    ("global ld requests", "global_ld_requests", ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]),
    ("global ld sectors", "global_ld_sectors", ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]),
    ("global st requests", "global_st_requests", ["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]),
    ("global st sectors", "global_st_sectors", ["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]),
    ("shared ld wavefronts", "shared_ld_wavefronts", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]),
    ("shared st wavefronts", "shared_st_wavefronts", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]),
]

BRANCH = ("divergent branches", "branch_divergent", ["smsp__sass_branch_targets_threads_divergent.sum"])

DIAG = [
    ("global ld instructions", "global_ld_requests", ["smsp__sass_inst_executed_op_global_ld.sum"]),
    ("global st instructions", "global_st_requests", ["smsp__sass_inst_executed_op_global_st.sum"]),
    ("global ld threads", "global_ld_threads", ["smsp__sass_thread_inst_executed_op_global_ld_pred_on.sum"]),
    ("global st threads", "global_st_threads", ["smsp__sass_thread_inst_executed_op_global_st_pred_on.sum"]),
    ("global atomic requests", "global_atom_requests", ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                                                        "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"]),
    ("global atomic sectors", "global_atom_sectors", ["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
                                                      "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"]),
    ("local ld requests", "local_ld_requests", ["l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"]),
    ("local ld sectors", "local_ld_sectors", ["l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"]),
    ("local st requests", "local_st_requests", ["l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"]),
    ("local st sectors", "local_st_sectors", ["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"]),
    ("shared ld instructions", "shared_ld_warps", ["smsp__sass_inst_executed_op_shared_ld.sum"]),
    ("shared st instructions", "shared_st_warps", ["smsp__sass_inst_executed_op_shared_st.sum"]),
    ("shared ld bank conflicts", "shared_ld_conflicts", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]),
    ("shared st bank conflicts", "shared_st_conflicts", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]),
    ("branch executions", "branch_execs", ["smsp__sass_inst_executed_op_branch.sum"]),
    ("branch targets", None, ["smsp__sass_branch_targets.sum"]),
    ("uniform branch targets", None, ["smsp__sass_branch_targets_threads_uniform.sum"]),
]


def all_names():
    rows = REQUIRED + [BRANCH] + DIAG
    return sorted({m for _, _, ms in rows for m in ms})
