/* Writes normals [3, 3 + 2^22) of (key 99, stream 7), float64 then float32, to stdout:
 * the stream pinned by tests/test_reproducibility.py. Built by cross_arch_check.sh. */
#include <stdio.h>
#include <stdlib.h>

#include "normal.h"

int main(void) {
    size_t n = (size_t)1 << 22;
    double *a = malloc(8 * n);
    float *f = malloc(4 * n);
    if (a == NULL || f == NULL) return 1;
    fn_normal_fill_f64(99, 7, 3, n, 0.0, 1.0, a);
    fn_normal_fill_f32(99, 7, 3, n, 0.0f, 1.0f, f);
    fwrite(a, 8, n, stdout);
    fwrite(f, 4, n, stdout);
    free(a);
    free(f);
    return 0;
}
