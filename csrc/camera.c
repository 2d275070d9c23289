/* Entry point of the camera noise: picks the kernel copy for this CPU. */
#include "camera.h"

void fn_camera_apply(const fn_camera_job *job, size_t row0, size_t row1) {
    if (row0 >= row1 || job->width == 0) return;
    const ptrdiff_t w = (ptrdiff_t)job->width;
    if (row1 - row0 > 1 && job->in_row == job->in_pix * w &&
        job->out_row == job->out_pix * w) {
        /* Rows follow each other in memory: one long row (same pixel indices), so
         * narrow images are not cut into short chunks. */
        fn_camera_job flat = *job;
        flat.width = job->width * (row1 - row0);
        flat.pixel0 = job->pixel0 + row0 * job->width;
        flat.in = (const char *)job->in + (ptrdiff_t)row0 * job->in_row;
        flat.out = (char *)job->out + (ptrdiff_t)row0 * job->out_row;
        flat.in_row = flat.out_row = 0;
        FN_DISPATCH(fn_camera_rows, (&flat, 0, 1));
        return;
    }
    FN_DISPATCH(fn_camera_rows, (job, row0, row1));
}
