# C declarations of csrc/lidar.h, shared by lidar.pyx (LidarNoise) and range_noise.pyx
# (RangeNoise). Declarations only: no module is built from this file.

from libc.stdint cimport uint8_t, uint64_t


cdef extern from "lidar.h" nogil:
    int FN_LIDAR_RAY_ANGULAR
    int FN_LIDAR_HITPOINT_ANGULAR
    int FN_LIDAR_DISTANCE
    int FN_LIDAR_RANGE
    uint64_t fn_lidar_stream(uint64_t frame, int kind)

    ctypedef struct fn_lidar_points_params:
        uint64_t key
        uint64_t frame
        double axis[3]
        double origin[3]
        double to_local[9]
        int angular
        double angular_mean
        double angular_stddev
        int distance
        double distance_mean
        double distance_base
        double distance_rise

    # the drivers return 0, or -1 (nothing written) for a reserved frame or indices
    # that would pass 2**64
    int fn_lidar_points_f64(const fn_lidar_points_params *p, uint64_t first_index,
                            size_t n, const double *points, const double *dist_in,
                            const uint8_t *mask_in, double *points_out, double *dist_out,
                            uint8_t *mask_out, double *local_out)
    int fn_lidar_points_f32(const fn_lidar_points_params *p, uint64_t first_index,
                            size_t n, const float *points, const float *dist_in,
                            const uint8_t *mask_in, float *points_out, float *dist_out,
                            uint8_t *mask_out, float *local_out)
    int fn_lidar_points_rows_f64(const fn_lidar_points_params *p, uint64_t first_index,
                                 size_t n, const char *points, size_t in_stride,
                                 const double *dist_in, const uint8_t *mask_in,
                                 char *points_out, size_t out_stride, double *dist_out,
                                 uint8_t *mask_out, double *local_out)
    int fn_lidar_points_rows_f32(const fn_lidar_points_params *p, uint64_t first_index,
                                 size_t n, const char *points, size_t in_stride,
                                 const float *dist_in, const uint8_t *mask_in,
                                 char *points_out, size_t out_stride, float *dist_out,
                                 uint8_t *mask_out, float *local_out)
    int fn_lidar_rays_f64(uint64_t key, uint64_t frame, const double *axis,
                          const double *origin, double mean, double stddev,
                          uint64_t first_index, size_t n, size_t stride, double *rays)
    int fn_lidar_rays_f32(uint64_t key, uint64_t frame, const double *axis,
                          const double *origin, double mean, double stddev,
                          uint64_t first_index, size_t n, size_t stride, float *rays)

    size_t fn_lidar_rays_check_f64(const double *rays, size_t n, size_t stride)
    size_t fn_lidar_rays_check_f32(const float *rays, size_t n, size_t stride)

    ctypedef struct fn_range_params:
        uint64_t key
        uint64_t frame
        double bias
        double mean
        double stddev
        double precision
        double min_range
        double max_range
        int noise
        int inf_outside
        int nan_rule

    int fn_range_noise_f64(const fn_range_params *p, uint64_t first_index, size_t n,
                           const double *inp, double *out)
    ctypedef struct fn_range_cache:
        int ok
    int fn_range_noise_one_f64(const fn_range_params *p, uint64_t index, double inp,
                               double *out, fn_range_cache *cache)
    int fn_range_noise_f32(const fn_range_params *p, uint64_t first_index, size_t n,
                           const float *inp, float *out)
