/* Batched IMU: N environments of the IMU error model (imu.h) stepped by one call.
 *
 * Environment e is a whole fn_imu (its own parameters, key, bias states and sample
 * count), so env e of a batch gives bit for bit what one fn_imu with the same
 * parameters and key gives: the same coefficients, the same unit normals, the same
 * arithmetic (fn_imu_linear and fn_imu_axis_sample of imu.h).
 *
 * Stream positions: every sample of an environment draws normal `count` of each of its
 * streams whose term is on (fn_imu_step does the same), so the batch keeps only the
 * count; an environment's stream positions are `count` for its terms that are on and
 * 0 for the others (the fn_imu's own fn_stream structs are left at their start).
 * The normals are cached per environment a group (FN_GROUP = 16 samples) at a time,
 * laid out sample-major, z[e][j][3 a + t] for sample j of the group, term t of axis a
 * (zeros for terms that are off), so one step reads 18 consecutive doubles per env.
 */
#ifndef FN_IMU_BATCH_H
#define FN_IMU_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "imu.h"

#define FN_IMU_BATCH_Z (FN_IMU_AXES * FN_IMU_TERMS) /* normals per env per sample */

typedef struct {
    size_t n;         /* environments */
    fn_imu *env;      /* n models */
    double *z;        /* n * FN_GROUP * FN_IMU_BATCH_Z cached unit normals */
    uint64_t *zgroup; /* the group each env's cache holds (UINT64_MAX: none) */
} fn_imu_batch;

/* Allocate n >= 1 environments, each a blank fn_imu (fn_imu_blank); 0 on success,
 * -1 when out of memory (b then holds nothing). fn_imu_batch_free releases them. */
int fn_imu_batch_alloc(fn_imu_batch *b, size_t n);
void fn_imu_batch_free(fn_imu_batch *b);

/* Environment e back to its seeded start (fn_imu_reset), its cache dropped. */
void fn_imu_batch_reset(fn_imu_batch *b, size_t e);
/* Drop environment e's cache (after its count was set from a state). */
void fn_imu_batch_forget(fn_imu_batch *b, size_t e);

/* One sample of every environment: omega, accel (n, 3) C-contiguous true values,
 * dt[e * dt_stride] the step of env e (dt_stride 0: one step for all), outputs
 * (n, 3); an output may be exactly its input. Every environment is checked first (the
 * checks of fn_imu_step_checked, on one sample): on a refusal, returns the FN_IMU_ERR_*
 * code with *env and *where (as fn_imu_step_checked's) and changes nothing but
 * coefficient caches. Steps dt must be finite and > 0 (the caller checks them). */
int fn_imu_batch_step_checked(fn_imu_batch *b, const double *omega, const double *accel,
                              const double *dt, size_t dt_stride, double *omega_out,
                              double *accel_out, size_t *env, size_t *where);

/* t samples of every environment: omega, accel (n, t, 3) C-contiguous, outputs the
 * same shape (each may be exactly its input); dt[e * env_stride + k * time_stride] the
 * step of sample k of env e. Bit for bit t calls of fn_imu_batch_step_checked; every
 * sample is checked first, so a refusal changes nothing but coefficient caches. */
int fn_imu_batch_apply_checked(fn_imu_batch *b, size_t t, const double *omega,
                               const double *accel, const double *dt, size_t env_stride,
                               size_t time_stride, double *omega_out, double *accel_out,
                               size_t *env, size_t *where);

#endif
