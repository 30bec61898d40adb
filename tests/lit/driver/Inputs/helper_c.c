/* SPDX-License-Identifier: Apache-2.0 */
/* Driver test input: plain C host code (must compile as C, not C++). */
int gm_test_c(void) { int class = 1; return class; }
