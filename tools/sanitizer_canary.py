"""A planted heap overflow through an instrumented fastnoise kernel.

Run on its own under the sanitizer build (.ci/steps/60-sanitizers.sh): it must die
with an AddressSanitizer report. If it exits normally, the sanitizer job would not
catch a real overflow either, and the step fails.

_fill_part is the unchecked inner call of fill_normals: it trusts its count, so
asking it for 64 values into an array of 8 writes 56 doubles past the block.
"""

import numpy as np

from fastnoise.core import generator

a = np.empty(8)
generator._fill_part(1, 0, 0, 0, 64, 0.0, 1.0, a)
print("no overflow was reported")
