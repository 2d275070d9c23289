/* DVL sensor suite (the Metron DVL simulator document): augmented white noise per sensor
 * and the vN/vE/vU composite.
 *
 * Augmented white noise for sample n of one sensor (key k):
 *   z_n = normal n of the canonical float32 stream (k, FN_AWN_NOISE_STREAM),
 *         taken as fn_normal_fill_f32(k, 0, n, 1, 0.0f, 1.0f, &z_n) and widened to
 *         double (exact): float64 normal n to float32 accuracy (1e-7 relative) at
 *         half the cost of a float64 draw;
 *   h_n = 16-bit half n % 8 of Philox block n / 8 of (k, FN_AWN_ANCHOR_STREAM), the
 *         block's words w0..w3 read as halves in little-endian order (half 2j = low
 *         16 bits of wj, half 2j + 1 = high 16 bits);
 *   P = anchor_probability * 2^16 (exact), F = floor(P), R = P - F;
 *   anchored_n = h_n < F, or h_n == F and v_n < R, with v_n = word 0 of Philox block
 *         n of (k, FN_AWN_TIE_STREAM) times 2^-32 (needed once in 2^16 samples);
 *   value = anchor                             if anchored_n,
 *           truth + bias                       else if noise_dev == 0,
 *           (truth + bias) + noise_dev * z_n   else.
 * So P(anchor) = F / 2^16 + ceil(R 2^32) / 2^48, p to within 2^-48, from a quarter
 * of a Philox block per sample (a 32-bit uniform per sample took twice the Philox
 * work, the largest cost after the normals). p = 0 never anchors, p = 1 always does.
 * z_n is drawn for every sample, anchored or not, so runs that differ only in anchor
 * settings keep aligned noise.
 *
 * Composite: R = Rz(yaw) Ry(pitch) Rx(roll) (body -> NED) from the measured angles in
 * degrees, (vN, vE, vD) = R (surge, sway, heave), vU = -vD.
 *
 * The per-sample and the batch functions compute the same expressions, so a batch of n
 * equals n single samples bit for bit, on every SIMD path.
 */
#ifndef FN_DVL_H
#define FN_DVL_H

#include "streams.h"

#include <stddef.h>
#include <stdint.h>

#include "fnmath.h"
#include "normal.h"
#include "simd.h"

/* Sensor order = order of draws in the original simulator = stream order. */
enum {
    FN_DVL_ROLL,
    FN_DVL_PITCH,
    FN_DVL_YAW,
    FN_DVL_SURGE,
    FN_DVL_SWAY,
    FN_DVL_HEAVE,
    FN_DVL_DEPTH,
    FN_DVL_ALTITUDE,
    FN_DVL_WATER_SPEED,
    FN_DVL_RPM,
    FN_DVL_NSENSORS
};
/* Message fields: the ten sensors, then the composite. */
enum { FN_DVL_VN = FN_DVL_NSENSORS, FN_DVL_VE, FN_DVL_VU, FN_DVL_NFIELDS };

#define FN_AWN_NOISE_STREAM FN_STREAM_AWN_NOISE
#define FN_AWN_ANCHOR_STREAM FN_STREAM_AWN_ANCHOR
#define FN_AWN_TIE_STREAM FN_STREAM_AWN_TIE

/* Largest magnitude of a finite truth value and of bias, noise_dev and anchor: with
 * |z| <= 6.67 a measured value stays below 1e302 and the composite (|vN|, |vE|, |vU|
 * <= |surge| + 2 |sway| + 2 |heave| in every intermediate) below 1e303, so finite
 * inputs within it never overflow to inf. NaN and +-inf truth are data (they
 * propagate); a finite truth beyond it is refused (FN_DVL_TOO_LARGE). */
#define FN_DVL_VALUE_MAX 1e300

/* Status of the measuring functions: nothing written and nothing advanced unless
 * FN_DVL_OK (a batch that meets a too-large truth value stops part-way: see
 * fn_dvl_measure_span). */
enum {
    FN_DVL_OK = 0,
    FN_DVL_NO_ROOM = -1,   /* the samples would pass index 2^64 - 2 (position 2^64 - 1) */
    FN_DVL_TOO_LARGE = -2, /* a finite truth value beyond FN_DVL_VALUE_MAX */
};

/* Angles (deg) from this size on are reduced exactly with fmod before the composite. */
#define FN_DVL_HUGE_DEG 0x1p50
/* Records per staging block of the batch's streaming store (6.5 KiB); the batch
 * streams a chunk's records out in slices of this size. */
#define FN_DVL_STAGE 64

/* Samples per refill of the per-sample anchor-half cache: a whole group of Philox
 * blocks (64 halves = 8 blocks) so the SIMD kernel does the work. */
#define FN_AWN_H_GROUP 64

/* fn_awn.kind bits */
enum { FN_AWN_NOISY = 1, FN_AWN_ANCHORS = 2 };

/* One sensor: parameters (units of the measured quantity), its key and the index of
 * its next sample, plus the draws of the current group of samples for one-at-a-time
 * use (the normals' stream with its group cache, and the anchor halves: pure
 * functions of key and group, so copying them is harmless). */
typedef struct {
    double bias;
    double noise_dev;
    double anchor;
    double anchor_probability;
    /* FN_AWN_NOISY: noise_dev != 0; FN_AWN_ANCHORS: anchor_probability > 0. With
     * neither (0), a value is truth + bias. Kept by fn_awn_init and
     * fn_awn_set_params, the only writers of the four parameters. */
    int kind;
    uint64_t key;
    uint64_t position;
    fn_stream z;
    int h_ok;
    uint64_t h_group;
    uint16_t h_cache[FN_AWN_H_GROUP];
} fn_awn;

/* What a batch reads of a sensor: its parameters, key and first sample (a copy
 * taken when the batch reserved its span, so the batch never reads a live sensor). */
typedef struct {
    double bias;
    double noise_dev;
    double anchor;
    double anchor_probability;
    uint64_t key;
    uint64_t position;
} fn_awn_params;

static inline fn_awn_params fn_awn_params_of(const fn_awn *s) {
    fn_awn_params p = {s->bias, s->noise_dev, s->anchor, s->anchor_probability,
                       s->key,  s->position};
    return p;
}

/* The model for one value, given its normal and anchor half, with F = floor(p 2^16);
 * a tie h == F is settled afterwards (fn_awn_settle_tie). */
static inline double fn_awn_value(double truth, double bias, double noise_dev,
                                  double anchor, double f, double z, uint16_t h) {
    double clean = truth + bias;
    double noisy = noise_dev == 0.0 ? clean : clean + noise_dev * z;
    return (double)h < f ? anchor : noisy;
}

/* degrees -> radians after an exact reduction to [-180, 180] (|d| < 2^50). */
static inline double fn_dvl_deg_to_rad(double d) {
    double k = (d * (1.0 / 360.0) + 0x1.8p52) - 0x1.8p52; /* nearest integer */
    return (d - k * 360.0) * 0x1.1df46a2529d39p-6;        /* exact difference, * pi/180 */
}

/* R (surge, sway, heave) with R = Rz(yaw) Ry(pitch) Rx(roll), angles in degrees
 * with |angle| < 2^50 (fn_dvl_compose_one handles any value). */
static inline void fn_dvl_rotate(double roll, double pitch, double yaw, double u, double v,
                                 double w, double *vn, double *ve, double *vu) {
    double sr, cr, sp, cp, sy, cy;
    fn_sincos_f64(fn_dvl_deg_to_rad(roll), &sr, &cr);
    fn_sincos_f64(fn_dvl_deg_to_rad(pitch), &sp, &cp);
    fn_sincos_f64(fn_dvl_deg_to_rad(yaw), &sy, &cy);
    /* body -> level frame (Ry Rx), then heading (Rz) */
    double a = u * cp + (v * sr + w * cr) * sp; /* x after pitch */
    double b = v * cr - w * sr;                 /* y after roll */
    double d = (v * sr + w * cr) * cp - u * sp; /* down */
    *vn = a * cy - b * sy;
    *ve = a * sy + b * cy;
    *vu = -d;
}

/* Whole-chunk kernels (contiguous arrays of n values). */
FN_DECLARE_KERNEL(void, fn_awn_philox_halves,
                  (uint64_t key, uint64_t stream, uint64_t block0, size_t nblocks,
                   uint16_t *out))
FN_DECLARE_KERNEL(void, fn_awn_values,
                  (size_t n, const double *truth, const double *z, const uint16_t *h,
                   double bias, double noise_dev, double anchor, double f, double *out,
                   size_t *ties, size_t *too_large))
FN_DECLARE_KERNEL(void, fn_dvl_rotate_many,
                  (size_t n, const double *roll, const double *pitch, const double *yaw,
                   const double *u, const double *v, const double *w, double *vn,
                   double *ve, double *vu))
/* fn_dvl_rotate for one sample, as the dispatched kernels compile it (hardware FMA in
 * the sines where there is one): the same bits as fn_dvl_rotate_many for n = 1,
 * without its loop. */
FN_DECLARE_KERNEL(void, fn_dvl_rotate_one,
                  (double roll, double pitch, double yaw, double u, double v, double w,
                   double *vn, double *ve, double *vu))
FN_DECLARE_KERNEL(void, fn_dvl_count_huge,
                  (size_t n, const double *roll, const double *pitch, const double *yaw,
                   size_t *count))
/* rows[j * row_len + i] = rec[i * stride + j] for the ten truth fields, i < m. */
FN_DECLARE_KERNEL(void, fn_dvl_load_records,
                  (size_t m, const double *rec, ptrdiff_t stride, double *rows,
                   size_t row_len))
/* out[i * FN_DVL_NFIELDS + j] = rows[j * row_len + i], j < FN_DVL_NFIELDS, i < m;
 * stream: non-temporal stores where available (the caller fences). */
FN_DECLARE_KERNEL(void, fn_dvl_store_records,
                  (size_t m, const double *rows, size_t row_len, double *out, int stream))

void fn_awn_init(fn_awn *s, uint64_t key);

/* A sensor's four parameters (units of the measured quantity). */
static inline void fn_awn_set_params(fn_awn *s, double bias, double noise_dev,
                                     double anchor, double anchor_probability) {
    s->bias = bias;
    s->noise_dev = noise_dev;
    s->anchor = anchor;
    s->anchor_probability = anchor_probability;
    s->kind = (noise_dev != 0.0 ? FN_AWN_NOISY : 0) |
              (anchor_probability > 0.0 ? FN_AWN_ANCHORS : 0);
}

/* Positions never wrap: a sensor's last position is 2^64 - 1 (sample 2^64 - 1 is never
 * drawn), and every function checks its span against it before it writes or advances
 * anything, with arithmetic that cannot wrap. */

/* Sample s->position: *out = the measured value of `truth`, then advance. Returns
 * FN_DVL_TOO_LARGE for a finite |truth| beyond FN_DVL_VALUE_MAX, else FN_DVL_NO_ROOM
 * at position 2^64 - 1, with *out and s untouched. */
int fn_awn_measure_one(fn_awn *s, double truth, double *out);

/* Samples p->position .. + n - 1 of a sensor (p: a copy taken when the caller
 * reserved the span) for truth[i * truth_stride] into out[i * out_stride] (strides in
 * doubles; 0 repeats one value). FN_DVL_NO_ROOM (nothing written) when the span would
 * pass sample 2^64 - 2; FN_DVL_TOO_LARGE when a finite truth value is beyond
 * FN_DVL_VALUE_MAX (out is then partly written). */
int fn_awn_measure_span(const fn_awn_params *p, size_t n, const double *truth,
                        ptrdiff_t truth_stride, double *out, ptrdiff_t out_stride);

/* The composite for any measured angles (exact reduction of huge ones with fmod). */
void fn_dvl_compose_one(const double meas[FN_DVL_NSENSORS], double *vn, double *ve,
                        double *vu);

/* One DVL message: truth[FN_DVL_NSENSORS] -> out[FN_DVL_NFIELDS]. Advances every
 * sensor by one sample, or none: FN_DVL_TOO_LARGE for a finite truth value beyond
 * FN_DVL_VALUE_MAX, else FN_DVL_NO_ROOM when a sensor is at position 2^64 - 1, with
 * *bad = that sensor (the first in table order), out and the sensors untouched. */
int fn_dvl_measure_one(fn_awn *const sensors[FN_DVL_NSENSORS], const double *truth,
                       double *out, int *bad);

/* Messages position + offset .. + n - 1 of every sensor (copies of the sensors taken
 * when the caller reserved the span; spans of one batch may run on several threads
 * at once): truth column j at truth[j][i * truth_stride[j]], record i at
 * out + i * out_stride. FN_DVL_NO_ROOM (nothing written) when a sensor's span would
 * pass sample 2^64 - 2; FN_DVL_TOO_LARGE when a finite truth value is beyond
 * FN_DVL_VALUE_MAX (out is then partly written). *bad = the sensor concerned. */
int fn_dvl_measure_span(const fn_awn_params sensors[FN_DVL_NSENSORS], uint64_t offset,
                        size_t n, const double *const truth[FN_DVL_NSENSORS],
                        const ptrdiff_t truth_stride[FN_DVL_NSENSORS], double *out,
                        ptrdiff_t out_stride, int *bad);

#endif
