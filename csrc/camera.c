/* Entry point of the camera noise: picks the kernel copy for this CPU. */
#include "camera.h"

/* 1 when the normal indices of rows [0, row1), all below (pixel0 + row1 * pitch) *
 * normals per pixel, end at or before 2^64 - 1, the stream's last position (where
 * the generator stops too): the index arithmetic in fn_camera_rows cannot wrap. */
static int indices_ok(const fn_camera_job *job, size_t row1) {
    const uint64_t nc = job->channels == 4 ? 3 : job->channels;
    const uint64_t per = job->per_channel ? nc : 1;
    const uint64_t w = job->pitch ? job->pitch : job->width;
    if ((uint64_t)row1 > UINT64_MAX / w) return 0;
    const uint64_t pixels = (uint64_t)row1 * w;
    if (job->pixel0 > UINT64_MAX - pixels) return 0;
    return job->pixel0 + pixels <= UINT64_MAX / per;
}

int fn_camera_apply(const fn_camera_job *job, size_t row0, size_t row1) {
    if (row0 >= row1 || job->width == 0) return 0;
    if (job->variant == FN_CAM_OGRE2_RGBD) return fn_camera_rgbd_rows(job, row0, row1);
    if (!indices_ok(job, row1)) return -1;
    const ptrdiff_t w = (ptrdiff_t)job->width;
    const int pitch_w = job->pitch == 0 || job->pitch == job->width;
    if (row1 - row0 > 1 && pitch_w && job->in_row == job->in_pix * w &&
        job->out_row == job->out_pix * w) {
        /* Rows follow each other in memory: one long row (same pixel indices), so
         * narrow images are not cut into short chunks. */
        fn_camera_job flat = *job;
        flat.width = job->width * (row1 - row0);
        flat.pitch = 0;
        flat.pixel0 = job->pixel0 + row0 * job->width;
        flat.in = (const char *)job->in + (ptrdiff_t)row0 * job->in_row;
        flat.out = (char *)job->out + (ptrdiff_t)row0 * job->out_row;
        flat.in_row = flat.out_row = 0;
        FN_DISPATCH(fn_camera_rows, (&flat, 0, 1));
        return 0;
    }
    FN_DISPATCH(fn_camera_rows, (job, row0, row1));
    return 0;
}
