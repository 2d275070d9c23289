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
 * The normals are cached per environment one group (FN_IMU_BATCH_SPAN = FN_GROUP
 * samples) at a time, all its streams refilled by one kernel call that writes them in
 * place (fn_imu_batch_fill_*, the values of fn_normal_fill_* with mean 0 and stddev 1):
 * sample j of env e at z[(e * SPAN + j) * Z + 6 t + a] for term t of axis a (zeros for
 * terms that are off), floats for float32 normals, doubles for float64 ones. A step
 * reads one short contiguous run per environment, and the whole cache (1152 bytes an
 * environment in float32) stays in the last-level cache for thousands of them; a step
 * never touches the (large) fn_imu structs unless a scale, misalignment or
 * G-sensitivity is on.
 */
#ifndef FN_IMU_BATCH_H
#define FN_IMU_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "imu.h"

#define FN_IMU_BATCH_Z (FN_IMU_AXES * FN_IMU_TERMS) /* normals per env per sample */
#define FN_IMU_BATCH_SPAN FN_GROUP                  /* samples cached per env (one group) */

/* What a step of one environment reads and writes, kept apart from the (large)
 * fn_imu so that a step walks one compact array. The first three cache lines hold
 * what every step touches (counters, the span its cached normals hold, bias states,
 * offsets: all a shared-row step reads of an environment); after them, the
 * coefficients for the gate's coef_dt (fn_imu_coefs of each axis, stored field by
 * field over the six axes so that the step's arithmetic runs on whole vectors of
 * axes), which only a step of an environment with coefficients of its own reads.
 * fn_imu_batch_pull / _push copy it to and from the environment's fn_imu, where the
 * Python layer reads and sets states; the coefficients are only ever a copy of the
 * fn_imu's own cache. 384 bytes, allocated on 64-byte boundaries. */
typedef struct {
    uint64_t count, room;
    uint64_t zspan; /* the span the env's cached normals hold (UINT64_MAX: none) */
    double gm[FN_IMU_AXES], rw[FN_IMU_AXES], offset[FN_IMU_AXES];
    uint64_t key; /* the fn_imu's key and which of its streams draw (bit 6 t + a) */
    uint32_t on;
    int linear; /* a scale, misalignment or G-sensitivity is on (fn_imu_linear) */
    int f32;    /* the unit normals are float32 (normal_dtype FN_FLOAT32) */
    int plain;  /* no axis saturates or quantizes (full_scale +inf, lsb 0) */
    double white[FN_IMU_AXES], alpha[FN_IMU_AXES];
    double gm_drive[FN_IMU_AXES], rw_step[FN_IMU_AXES];
} fn_imu_hot;

_Static_assert(sizeof(fn_imu_hot) == 384, "fn_imu_hot: six whole cache lines");

/* The coefficients a step reads only when the hot state is not plain. */
typedef struct {
    double full_scale[FN_IMU_AXES], lsb[FN_IMU_AXES], inv_lsb[FN_IMU_AXES];
} fn_imu_cold;

/* Steps 4-5 of imu.h on the six axes of a non-plain step: the clamp to full scale
 * (fn_imu_saturated's), then the quantization, in place. Shared by the per-env and the
 * shared-row steps, so both give the same bits. */
static inline void fn_imu_cold_finish(const fn_imu_cold *k, double *y) {
    for (int a = 0; a < FN_IMU_AXES; a++) {
        double fs = k->full_scale[a], v = y[a];
        v = v < -fs ? -fs : v;
        v = v > fs ? fs : v;
        if (k->lsb[a] > 0.0)
            v = k->inv_lsb[a] != 0.0 ? fn_imu_quantized(v, k->lsb[a], k->inv_lsb[a])
                                     : fn_imu_quantized_away(v, k->lsb[a]);
        y[a] = v;
    }
}

/* What the check pass of a step reads, in a compact array of its own so that it stays
 * in cache: the step the coefficients are for, the largest accepted true value, and
 * whether the checks of the bias states (see fn_imu_step_checked) pass as the hot
 * state stands (set by each step, cleared whenever the state is set from outside). */
typedef struct {
    double coef_dt, max_input;
    int ok;
} fn_imu_gate;

/* The coefficients that every environment of a batch shares, when they all do (the
 * common case: parameters that are not per environment, no scale, misalignment or
 * G-sensitivity, one normal dtype, one step): a step then reads them once for all
 * environments, and of each environment only the first lines of its hot state. */
typedef struct {
    double white[FN_IMU_AXES], alpha[FN_IMU_AXES];
    double gm_drive[FN_IMU_AXES], rw_step[FN_IMU_AXES];
    fn_imu_cold cold;
    double coef_dt, max_input;
    int f32, plain;
} fn_imu_row;

typedef struct {
    size_t n;          /* environments */
    fn_imu *env;       /* n models */
    fn_imu_hot *hot;   /* n hot states (authoritative between pull and push) */
    fn_imu_gate *gate; /* n check states (coef_dt authoritative, as hot) */
    fn_imu_cold *cold; /* n saturation and quantization coefficients */
    double *z;         /* cached unit normals (the layout above) */
    /* The shared row: valid while shared_known; shared says whether every env has
     * these coefficients (and no linear step). Any change of an env's coefficients
     * clears shared_known. */
    fn_imu_row row;
    int shared_known, shared;
    /* Shared-row steps left before the checks of the bias states and counters must
     * run again: for this many steps every env's checks pass (a bound computed from
     * the states, see clear_steps in imu_batch.c); 0 after any other change. */
    uint64_t clear;
    int gates_stale; /* shared-row steps ran: every gate's ok is out of date */
} fn_imu_batch;

/* Allocate n >= 1 environments, each a blank fn_imu (fn_imu_blank); 0 on success,
 * -1 when out of memory (b then holds nothing). fn_imu_batch_free releases them. */
int fn_imu_batch_alloc(fn_imu_batch *b, size_t n);
void fn_imu_batch_free(fn_imu_batch *b);

/* Environment e back to its seeded start (fn_imu_reset), its cache dropped. */
void fn_imu_batch_reset(fn_imu_batch *b, size_t e);
/* Environment e's fn_imu was set (built, or its bias states and count set from a
 * state): take its hot state from it and drop its cache. */
void fn_imu_batch_push(fn_imu_batch *b, size_t e);
/* Environment e's hot state (bias states, count) into its fn_imu, to be read. */
void fn_imu_batch_pull(fn_imu_batch *b, size_t e);

/* One sample of every environment: omega, accel (n, 3) C-contiguous true values,
 * dt[e * dt_stride] the step of env e (dt_stride 0: one step for all), outputs
 * (n, 3); an output may be exactly its input. Every environment is checked first (the
 * checks of fn_imu_step_checked, on one sample): on a refusal, returns the FN_IMU_ERR_*
 * code with *env and *where (as fn_imu_step_checked's) and changes nothing but
 * coefficient caches. Steps dt must be finite and > 0 (the caller checks them). */
int fn_imu_batch_step_checked(fn_imu_batch *b, const double *omega, const double *accel,
                              const double *dt, size_t dt_stride, double *omega_out,
                              double *accel_out, size_t *env, size_t *where);

/* fn_imu_batch_step_checked in two halves, so that the environments can be stepped in
 * parts on several threads. _begin runs every check of the whole batch (and sets each
 * env's coefficients for its step): on a refusal it returns the FN_IMU_ERR_* code as
 * fn_imu_batch_step_checked does and nothing is stepped; on FN_IMU_OK the caller must
 * then step every environment exactly once, by _range calls over ranges [start,
 * start + count) that partition [0, n), passing *shared and the same arrays. A _range
 * call reads and writes only the state, cache and rows of its own environments, so
 * calls on disjoint ranges may run at the same time, and the bits do not depend on
 * the partition. */
int fn_imu_batch_step_begin(fn_imu_batch *b, const double *omega, const double *accel,
                            const double *dt, size_t dt_stride, int *shared, size_t *env,
                            size_t *where);
void fn_imu_batch_step_range(fn_imu_batch *b, int shared, const double *omega,
                             const double *accel, double *omega_out, double *accel_out,
                             size_t start, size_t count);

/* t samples of every environment: omega, accel (n, t, 3) C-contiguous, outputs the
 * same shape (each may be exactly its input); dt[e * env_stride + k * time_stride] the
 * step of sample k of env e. Bit for bit t calls of fn_imu_batch_step_checked; every
 * sample is checked first, so a refusal changes nothing but coefficient caches. */
int fn_imu_batch_apply_checked(fn_imu_batch *b, size_t t, const double *omega,
                               const double *accel, const double *dt, size_t env_stride,
                               size_t time_stride, double *omega_out, double *accel_out,
                               size_t *env, size_t *where);

/* Internal (imu_batch.c, imu_batch_kern.c): env e's cache of unit normals filled with
 * span s (FN_IMU_BATCH_SPAN samples of each of its streams that draw). */
void fn_imu_batch_fill_span(fn_imu_batch *b, size_t e, uint64_t s);

/* Internal (imu_batch_fill_kern.c): the cache of one environment for group `group` of
 * its streams (key `key`, the terms that draw in `on`, bit 6 t + a): z[18 j + 6 t + a]
 * is normal 16 group + j of the stream of axis a, term t (0 + 1 z, as
 * fn_normal_group_many_* writes it), or zero where the term is off. SIMD-dispatched;
 * every target gives the same bits. */
FN_DECLARE_KERNEL(void, fn_imu_batch_fill_f64,
                  (uint64_t key, uint32_t on, uint64_t group, double *z))
FN_DECLARE_KERNEL(void, fn_imu_batch_fill_f32,
                  (uint64_t key, uint32_t on, uint64_t group, float *z))

/* Internal: one sample of envs [start, end) on the shared row b->row (b->shared),
 * after the caller's checks (imu_batch.c); the arithmetic of a single model, operation
 * for operation. SIMD-dispatched; every target gives the same bits. */
FN_DECLARE_KERNEL(void, fn_imu_batch_shared_step,
                  (fn_imu_batch * b, size_t start, size_t end, const double *omega,
                   const double *accel, double *omega_out, double *accel_out))

#endif
