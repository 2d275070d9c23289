/* MuJoCo sensor noise: one call noises a whole sensordata vector (or a batch of them)
 * from a plan made once from the model (fastnoise.mujoco.SensorNoise).
 *
 * Each step of environment e draws nz standard normals, normals 0..nz-1 of stream
 * step << 1 | FN_MJ_STREAM_NOISE under that environment's key; plan row i reads its
 * own normals from row.zoff. Per component k of a row (parameter index p = row.poff +
 * k, state index s = row.soff + k):
 *   sigma = sqrt(sd[p]^2 + nd[p]^2 / dt)               white noise, per sample
 *   walk  += rw[p] sqrt(dt) z[zoff + dim + k]           random walk (rows with state)
 *   y = x + cb[p] + turn_on + walk + sigma z[zoff + k]
 * with turn_on = state[s] and walk = state[s + dim] (rows with soff >= 0). Kinds:
 *   WHITE   y as above;
 *   NONNEG  max(y, 0) (touch: a non-negative normal force);
 *   RANGE   x < 0 (no hit, -1) is kept as it is, otherwise max(y, 0);
 *   UNIT    y as above, then scaled to unit length (frame axes, geom normals);
 *   QUAT    a rotation: q' = q * exp(r / 2) with the rotation vector r_k = sd[p + k]
 *           z[zoff + k] (k < 3, rad, in the sensor frame), normalized.
 * The turn-on biases are drawn per environment at its reset r from stream
 * r << 1 | FN_MJ_STREAM_BIAS (by the caller).
 */
#ifndef FN_MJSENSOR_H
#define FN_MJSENSOR_H

#include <stddef.h>
#include <stdint.h>

/* The streams of an environment's key (key tag "mujoco_sensor"; SensorNoise is an
 * adapter, not a registry model, so its ids live here rather than in streams.h). */
#define FN_MJ_STREAM_NOISE 0u /* stream step << 1 | this: the step's normals */
#define FN_MJ_STREAM_BIAS 1u  /* stream reset << 1 | this: the turn-on biases */

enum {
    FN_MJ_WHITE = 0,
    FN_MJ_NONNEG = 1,
    FN_MJ_RANGE = 2,
    FN_MJ_UNIT = 3,
    FN_MJ_QUAT = 4,
};

typedef struct {
    int32_t kind; /* FN_MJ_* */
    int32_t adr;  /* first value in sensordata */
    int32_t dim;  /* values of the sensor */
    int32_t zoff; /* first normal of the step for this row */
    int32_t poff; /* first parameter (sd, nd, cb, rw) */
    int32_t soff; /* first state slot (turn-on biases, then walks), or -1 */
} fn_mj_row;

/* Noise nenv sensordata vectors in place: data + e * stride for environment e, whose
 * step counter steps[e] advances by one. z holds nz doubles. dt > 0 (s). */
void fn_mj_apply(const fn_mj_row *plan, size_t nrows, const double *sd, const double *nd,
                 const double *cb, const double *rw, size_t nz, size_t nstate, size_t nenv,
                 const uint64_t *keys, uint64_t *steps, double dt, double *data,
                 size_t stride, double *state, double *z);

#endif
