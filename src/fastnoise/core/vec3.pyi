# fastnoise.core.vec3 has only C-level (cdef) functions: nothing public.
