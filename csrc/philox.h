/* Philox4x32-10 (Salmon et al., SC'11): a counter-based bit generator.
 * Every random word in fastnoise is philox(counter, key) with
 * counter = (block lo, block hi, stream lo, stream hi) and a 64-bit key.
 */
#ifndef FN_PHILOX_H
#define FN_PHILOX_H

#include "fnhd.h"

#define FN_PHILOX_M0 0xD2511F53u
#define FN_PHILOX_M1 0xCD9E8D57u
#define FN_PHILOX_W0 0x9E3779B9u
#define FN_PHILOX_W1 0xBB67AE85u

/* One block: four 32-bit words from a 128-bit counter and a 64-bit key. Written
 * on plain locals so loops over blocks vectorize. */
FN_INLINE void fn_philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                uint32_t k0, uint32_t k1, uint32_t out[4]) {
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)FN_PHILOX_M0 * c0;
        uint64_t p1 = (uint64_t)FN_PHILOX_M1 * c2;
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
        c1 = (uint32_t)p1;
        c3 = (uint32_t)p0;
        c0 = n0;
        c2 = n2;
        k0 += FN_PHILOX_W0;
        k1 += FN_PHILOX_W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* Block `block` of stream `stream` under `key` (the layout every model uses). */
FN_INLINE void fn_philox_block(uint64_t key, uint64_t stream, uint64_t block,
                               uint32_t out[4]) {
    fn_philox4x32_10((uint32_t)block, (uint32_t)(block >> 32), (uint32_t)stream,
                     (uint32_t)(stream >> 32), (uint32_t)key, (uint32_t)(key >> 32), out);
}

#endif
