"""The shared machinery under every model: the generator, SIMD dispatch, seeding, the
model contract, the stream registry, threads, recycled buffers and validation."""
