/* The stream registry: the Philox stream ids every model draws, in one place.
 *
 * Every random number is normal (or raw word) n of stream s under a key k. A model's
 * key is made from the user's seed and the model's tag
 * (fastnoise.core.seeding.model_key), so models with different tags never share a key;
 * the ids below separate the streams inside one model. A few models share a tag on
 * purpose, each sharing declared in the model's declaration (shared_tags) with its
 * reason and tested by tests/test_streams.py: range draws stream 4 f + 3 of the lidar
 * key, which lidar never draws (4 f + 0..2); depth draws the camera's own per-pixel
 * normals; each sensor of a DVL simulator keys with a child of its seed.
 * src/fastnoise/core/streams.py holds the same table with what each stream draws and
 * its limits; tests/test_streams.py parses this header and checks both say the same.
 */
#ifndef FN_STREAMS_H
#define FN_STREAMS_H

/* IMU (key tag "imu"): stream FN_STREAM_IMU_TAG | axis << 8 | term, axis 0..5
 * (gyro x, y, z, accel x, y, z). */
#define FN_STREAM_IMU_TAG 0x494D550000000000ull /* "IMU" in the top bytes */
#define FN_STREAM_IMU_WHITE 0u                  /* per-sample white noise */
#define FN_STREAM_IMU_GAUSS_MARKOV 1u           /* per-sample Gauss-Markov drive */
#define FN_STREAM_IMU_RANDOM_WALK 2u            /* per-sample random-walk step */
#define FN_STREAM_IMU_STARTUP 3u                /* n 0: turn-on bias, n 1: GM start */
#define FN_STREAM_IMU_SIGN 4u                   /* raw word 0: turn-on bias sign */

/* Augmented white noise / DVL sensors (key tag "dvl", one child seed per sensor). */
#define FN_STREAM_AWN_NOISE 0u  /* float32 normal n: white noise of sample n */
#define FN_STREAM_AWN_ANCHOR 1u /* 16-bit halves: the anchor decision of sample n */
#define FN_STREAM_AWN_TIE 2u    /* raw word n: breaks a tie of the 16-bit decision */

/* Lidar and range (one key tag, "lidar"): stream frame << 2 | kind, frame < 2^62; the
 * lidar draws kinds 0..2, the range model kind 3 only, so their streams never meet. The
 * last frame, 2^62 - 1, is reserved for the range model's once-drawn bias. */
#define FN_STREAM_LIDAR_RAY_ANGULAR 0u
#define FN_STREAM_LIDAR_HITPOINT_ANGULAR 1u
#define FN_STREAM_LIDAR_DISTANCE 2u
#define FN_STREAM_LIDAR_RANGE 3u
#define FN_STREAM_LIDAR_FRAME_BITS 62u

/* Gazebo noise channels (gz-sensors GaussianNoiseModel; key tag: the model's name,
 * "gazebo_noise", "magnetometer", "altimeter", "air_pressure", "air_speed", "navsat",
 * "force_torque"): stream FN_STREAM_GZ_TAG | component << 8 | term (csrc/gznoise.h). */
#define FN_STREAM_GZ_TAG 0x475A4E0000000000ull /* "GZN" in the top bytes */
#define FN_STREAM_GZ_WHITE 0u                  /* normal k: white noise of sample k */
#define FN_STREAM_GZ_DYNAMIC 1u /* normal k: dynamic-bias drive of sample k */
#define FN_STREAM_GZ_BIAS 2u    /* normal 0: the turn-on bias */
#define FN_STREAM_GZ_SIGN 3u    /* raw word 0: the turn-on bias sign */
/* CARLA's ray-cast lidar (key tag "carla_lidar"): stream frame << 2 | kind, frame <
 * 2^62 - 1 (the last frame reserved). Point i draws raw word i (GENERAL), float32
 * normal i (NOISE) and raw word i (INTENSITY). */
#define FN_STREAM_CARLA_GENERAL 0u   /* raw word i: general drop-off uniform */
#define FN_STREAM_CARLA_NOISE 1u     /* float32 normal i: range noise */
#define FN_STREAM_CARLA_INTENSITY 2u /* raw word i: intensity drop-off uniform */
#define FN_STREAM_CARLA_FRAME_BITS 62u

/* Camera and depth (one key tag, "camera"): stream = frame, any frame < 2^64; a depth
 * image's pixel draws the camera's own normal of that pixel, on purpose (one Gaussian
 * per pixel for RGB-D depth and colour, as gz-rendering's depth noise shader). */

/* Isaac Lab's vocabulary (key tags "gaussian_noise", "uniform_noise",
 * "constant_noise", "additive_bias_noise"; environment e keys with child e of the
 * model's seed sequence): stream step << 1 | NOISE draws a step's values, stream
 * reset << 1 | BIAS the bias drawn at an environment's reset (csrc/simple.h). */
#define FN_STREAM_SIMPLE_NOISE 0u
#define FN_STREAM_SIMPLE_BIAS 1u

#endif
