# The base of every model (see model.pyx for the contract).


cdef class Model:
    cdef object _seed_seq  # numpy.random.SeedSequence, or None for a deterministic model
    cdef object _lock      # guards position updates when one object is shared by threads
