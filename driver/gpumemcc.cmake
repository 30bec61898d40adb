# SPDX-License-Identifier: Apache-2.0
# gpumemcc, the nvcc-compatible driver (C17, libc + POSIX only). Included by
# driver/CMakeLists.txt. It finds the pass, handlers, headers and libgpumem
# relative to its own executable (<exe>/../lib/gpumem, ../include, ../lib),
# so the build tree (build/bin) and an install prefix work the same way.
set(GM_CC_DIR ${CMAKE_CURRENT_LIST_DIR})
add_executable(gpumemcc
  ${GM_CC_DIR}/gpumemcc_main.c
  ${GM_CC_DIR}/gpumemcc_args.c
  ${GM_CC_DIR}/gpumemcc_opts.c
  ${GM_CC_DIR}/gpumemcc_arch.c
  ${GM_CC_DIR}/gpumemcc_paths.c
  ${GM_CC_DIR}/gpumemcc_instr.c
  ${GM_CC_DIR}/gpumemcc_link.c
  ${GM_CC_DIR}/gpumemcc_cmd.c
  ${GM_CC_DIR}/gpumemcc_dlink.c
  ${GM_CC_DIR}/gpumemcc_spawn.c
  ${GM_CC_DIR}/gpumemcc_compat.c
  ${GM_CC_DIR}/gpumemcc_nvccenv.c
  ${GM_CC_DIR}/gpumemcc_budget.c
  ${GM_CC_DIR}/gpumemcc_help.c
  ${GM_CC_DIR}/gpumemcc_strvec.c)
target_compile_definitions(gpumemcc PRIVATE
  _GNU_SOURCE
  GM_VERSION="${PROJECT_VERSION}"
  GM_CLANG_DEFAULT="${GM_CLANG}"
  GM_INSTALL_LIBDIR="${CMAKE_INSTALL_LIBDIR}")
install(TARGETS gpumemcc RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# the link preinclude that makes instrumented objects load libgpumem
# themselves (docs/linking.md), in the resource directory
configure_file(${GM_CC_DIR}/include/gpumem_link.h ${GM_RESOURCE_DIR}/include/gpumem_link.h COPYONLY)
install(FILES ${GM_CC_DIR}/include/gpumem_link.h DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpumem/include)
# the nvcc compatibility pre-include of every .cu compile (gpumemcc_compat.c)
configure_file(${GM_CC_DIR}/include/gpumem_nvcc_compat.h ${GM_RESOURCE_DIR}/include/gpumem_nvcc_compat.h COPYONLY)
install(FILES ${GM_CC_DIR}/include/gpumem_nvcc_compat.h DESTINATION ${CMAKE_INSTALL_LIBDIR}/gpumem/include)
