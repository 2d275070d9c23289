/* Entry point of the camera noise: picks the kernel copy for this CPU. */
#include "camera.h"

void fn_camera_apply(const fn_camera_job *job, size_t row0, size_t row1) {
    if (row0 >= row1 || job->width == 0) return;
    FN_DISPATCH(fn_camera_rows, (job, row0, row1));
}
