// SPDX-License-Identifier: Apache-2.0
int host_answer() { return 42; }
