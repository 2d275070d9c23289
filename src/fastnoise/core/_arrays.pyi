"""Type stub for fastnoise.core._arrays (the compiled overlap rule of the intake)."""

import numpy as np

def no_partial_overlap(
    outputs: dict[str, np.ndarray | None], inputs: dict[str, np.ndarray | None]
) -> None: ...
