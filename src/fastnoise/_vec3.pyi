# fastnoise._vec3 has only C-level (cdef) functions: nothing public.
