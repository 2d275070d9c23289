# C declarations of csrc/gznoise.h (Gazebo's Gaussian noise channels), for gazebo.pyx.
# Declarations only: no module is built from this file.

from libc.stdint cimport uint32_t, uint64_t


cdef extern from "gznoise.h" nogil:
    unsigned long long FN_STREAM_GZ_TAG

    ctypedef struct fn_gz_params:
        double mean
        double stddev
        double dyn_stddev
        double dyn_tau
        double precision

    ctypedef struct fn_gz_channel:
        fn_gz_params p
        uint64_t key
        uint64_t stream
        uint64_t count
        double bias
        int wok
        int dok

    double fn_gz_expm1(double x)
    double fn_gz_wrap180(double d)
    void fn_gz_wgs84_deg_per_m(double lat_deg, double *dlat, double *dlon)
    double fn_gz_step(const fn_gz_params *p, double *bias, double x, double dt, double zw,
                      double zd)
    void fn_gz_channel_init(fn_gz_channel *c, const fn_gz_params *p, uint64_t key,
                            uint64_t stream, double bias_mean, double bias_stddev)
    double fn_gz_channel_apply_one(fn_gz_channel *c, double x, double dt)
    int fn_gz_runs_one(fn_gz_channel *ch, const bint *on, int (*run)[3], int nrun,
                       double *v, double dt)
    int fn_gz_channel_apply(fn_gz_channel *c, size_t m, const double *x, ptrdiff_t xs,
                            ptrdiff_t es, const double *dt, ptrdiff_t dts, size_t n,
                            double *out, ptrdiff_t os)
    int fn_gz_navsat_horizontal(fn_gz_channel *c, int metres, const double *x, ptrdiff_t xs,
                                const double *dt, ptrdiff_t dts, size_t n, double *out,
                                ptrdiff_t os)


cdef extern from "gznoise_batch.h" nogil:
    int FN_GZ_LAYOUT_RUNS
    int FN_GZ_LAYOUT_NAVSAT_DEG
    int FN_GZ_LAYOUT_NAVSAT_M
    int FN_GZ_LAYOUT_HPA

    ctypedef struct fn_gz_layout:
        int nch
        int ncol
        int nrun
        int run[6][3]
        int on[6]
        uint64_t per_row[6]
        int mode

    ctypedef struct fn_gz_tile:
        size_t m

    int fn_gz_tile_alloc(fn_gz_tile *t, size_t m)
    void fn_gz_tile_free(fn_gz_tile *t)
    void fn_gz_tile_sync(fn_gz_tile *t, fn_gz_channel *ch)
    void fn_gz_tile_push(fn_gz_tile *t, const fn_gz_channel *ch, size_t c0, size_t c1)
    int fn_gz_batch_rows(fn_gz_channel *ch, fn_gz_tile *tile, size_t n,
                         const fn_gz_layout *lay, size_t t, double *x, const double *dt,
                         size_t env_stride, size_t time_stride, size_t *env)
    int fn_gz_batch_apply(fn_gz_channel *ch, fn_gz_tile *tile, size_t n, size_t t,
                          const double *x, const double *dt, size_t env_stride,
                          size_t time_stride, double *out, size_t *env)
