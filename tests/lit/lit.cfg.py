# SPDX-License-Identifier: Apache-2.0
# lit configuration for gpumem: one directory per part (pass/, driver/,
# handlers/, sim/, runtime/, examples/). Substitutions name the built tools.
import os
import lit.formats

config.name = "gpumem"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".ll", ".test", ".cu", ".c"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.gm_build_dir, "tests", "lit")

b = config.gm_build_dir
bindir = os.path.join(b, "bin")
res = os.path.join(b, "lib", "gpumem")
config.environment["PATH"] = os.pathsep.join(
    [bindir, config.gm_llvm_bindir, os.path.join(config.gm_cuda_path, "bin"),
     config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["CUDA_PATH"] = config.gm_cuda_path
for v in ("HOME", "TMPDIR"):
    if v in os.environ:
        config.environment[v] = os.environ[v]

subs = {
    "%gm_src": config.gm_src_dir,
    "%gm_build": b,
    "%gpumemcc": os.path.join(bindir, "gpumemcc"),
    "%gpumem-sim": os.path.join(bindir, "gpumem-sim"),
    "%gpumem_cli": os.path.join(bindir, "gpumem"),
    "%pass_plugin": os.path.join(res, "GpumemPass.so"),
    "%handlers": os.path.join(res, "handlers"),
    "%gm_include": os.path.join(b, "include"),
    "%opt": os.path.join(config.gm_llvm_bindir, "opt"),
    "%clang": os.path.join(config.gm_llvm_bindir, "clang++"),
    "%llvm-dis": os.path.join(config.gm_llvm_bindir, "llvm-dis"),
    "%ptxas": config.gm_ptxas,
    "%cuda_path": config.gm_cuda_path,
    "%examples": os.path.join(config.gm_src_dir, "examples"),
    "%python": "python3",
}
# longest first so %gpumem-sim is not eaten by a shorter key
for k in sorted(subs, key=len, reverse=True):
    config.substitutions.append((k, subs[k]))

# link styles (runtime/link-*.test): an MPI wrapper and nvcc where installed
import shutil
if shutil.which("mpicxx", path=config.environment["PATH"]):
    config.available_features.add("mpi")
if os.path.exists(os.path.join(config.gm_cuda_path, "bin", "nvcc")):
    config.available_features.add("nvcc")
if os.path.exists("/dev/nvidia0") or os.environ.get("GM_HAVE_GPU") == "1":
    config.available_features.add("gpu")
