# C declarations of the IMU core (csrc/imu.h), cimported by imu.pyx (a .pxd only:
# nothing extra to build).

from libc.stdint cimport uint64_t

from fastnoise.core.capi cimport fn_stream


cdef extern from "imu.h" nogil:
    int FN_IMU_AXES
    int FN_IMU_TERMS

    ctypedef struct fn_imu_axis_params:
        double noise_stddev
        double noise_density
        double bias
        double turn_on_mean
        double turn_on_stddev
        double gm_stddev
        double gm_tau
        double rw_density
        double full_scale
        double lsb
        int gm_steady_state
        int turn_on_in_gm
        int round_away

    double FN_IMU_TERM_MAX
    int FN_IMU_OK
    int FN_IMU_ERR_COUNT
    int FN_IMU_ERR_STREAM
    int FN_IMU_ERR_WHITE
    int FN_IMU_ERR_GM
    int FN_IMU_ERR_RW
    int FN_IMU_ERR_OMEGA
    int FN_IMU_ERR_ACCEL

    ctypedef struct fn_imu:
        fn_imu_axis_params p[6]
        double lin[2][3][3]
        double gsens[3][3]
        uint64_t key
        int normal_dtype
        fn_stream st[6][3]
        double gm[6]
        double rw[6]
        double turn_on[6]
        int on[6][3]
        uint64_t count
        uint64_t room
        double coef_dt
        double max_input

    void fn_imu_init(fn_imu *m)
    void fn_imu_blank(fn_imu *m)
    void fn_imu_reset(fn_imu *m)
    void fn_imu_set_room(fn_imu *m)
    int fn_imu_step_checked(fn_imu *m, const double *omega, const double *accel, double dt,
                            double *omega_out, double *accel_out, size_t *where)
    # a single model's cache of unit normals for fn_imu_step_cached (its fields are the
    # C code's own)
    ctypedef struct fn_imu_zcache:
        pass
    void fn_imu_zcache_clear(fn_imu_zcache *zc)
    int fn_imu_step_cached(fn_imu *m, fn_imu_zcache *zc, const double *omega,
                           const double *accel, double dt, double *omega_out,
                           double *accel_out, size_t *where)
    int fn_imu_apply_checked(fn_imu *m, size_t n, const double *omega, const double *accel,
                             const double *dt, size_t dt_stride, double *omega_out,
                             double *accel_out, size_t *where)
    int fn_imu_advance_biases_checked(fn_imu *m, size_t n, const double *dt,
                                      size_t dt_stride, size_t *where)


cdef extern from "imu_batch.h" nogil:
    ctypedef struct fn_imu_batch:
        size_t n
        fn_imu *env

    int fn_imu_batch_alloc(fn_imu_batch *b, size_t n)
    void fn_imu_batch_free(fn_imu_batch *b)
    void fn_imu_batch_reset(fn_imu_batch *b, size_t e)
    void fn_imu_batch_push(fn_imu_batch *b, size_t e)
    void fn_imu_batch_pull(fn_imu_batch *b, size_t e)
    int fn_imu_batch_step_checked(fn_imu_batch *b, const double *omega, const double *accel,
                                  const double *dt, size_t dt_stride, double *omega_out,
                                  double *accel_out, size_t *env, size_t *where)
    # the batch step in two halves (every check, then disjoint env ranges: imu_batch.h)
    int fn_imu_batch_step_begin(fn_imu_batch *b, const double *omega, const double *accel,
                                const double *dt, size_t dt_stride, int *shared,
                                size_t *env, size_t *where)
    void fn_imu_batch_step_range(fn_imu_batch *b, int shared, const double *omega,
                                 const double *accel, double *omega_out, double *accel_out,
                                 size_t start, size_t count)
    int fn_imu_batch_apply_checked(fn_imu_batch *b, size_t t, const double *omega,
                                   const double *accel, const double *dt, size_t env_stride,
                                   size_t time_stride, double *omega_out, double *accel_out,
                                   size_t *env, size_t *where)
