"""The noise models, one module per model; each follows the contract of
:mod:`fastnoise.core.model`."""
