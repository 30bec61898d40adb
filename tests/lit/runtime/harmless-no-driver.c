// A program linked with libgpumem on a machine without a CUDA driver runs
// unchanged: one line says the runtime stepped aside, the public API is a
// harmless no-op, the exit status is the program's own. GPUMEM_DISABLE=1
// silences the runtime entirely.
// UNSUPPORTED: gpu
// RUN: %clang -x c %s -I%gm_src/runtime/include -L%gm_build/lib -lgpumem -Wl,-rpath,%gm_build/lib -o %t
// RUN: sh -c '%t 5; echo rc=$?' > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: test "$(grep -c gpumem %t.err)" = 1
// RUN: env GPUMEM_DISABLE=1 sh -c '%t 0; echo rc=$?' > %t.d.out 2> %t.d.err
// RUN: FileCheck %s --check-prefix=DIS < %t.d.out
// RUN: test ! -s %t.d.err
// OUT: hello from the program
// OUT-NEXT: rc=5
// ERR: gpumem: {{.*}}; program runs uninstrumented
// DIS: rc=0
#include <gpumem/runtime.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    static int buf[16];
    gm_name_allocation(buf, "not a device allocation");
    gm_flush_report();
    printf("hello from the program\n");
    return argc > 1 ? atoi(argv[1]) : 0;
}
