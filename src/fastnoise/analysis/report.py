"""Reports: PNG pictures and one HTML page gathering them, for a fitted log
(``fastnoise fit``) or a configured model (``fastnoise report``).

Model configuration (``fastnoise report MODEL --config FILE``): a JSON object, one of

- a model's saved state, exactly as ``json.dump(model.state, f)`` writes it (keys
  ``model``, ``version``, ``params``, ``seed_seq``, ``position``): rebuilt with
  ``from_state``;
- ``{"params": {...}, "seed": 7, "report": {...}}``: ``params`` are the model's
  constructor keywords (the same layout as ``model.state["params"]``), ``seed`` an
  optional int, ``report`` optional picture settings (below);
- for ``dvl`` only: a DVL configuration in the Metron DVL simulator document's layout (``{"seed": 7,
  "dvl_roll": {"bias": 0.2, "noiseDev": 0.5, ...}, ...}``, see
  ``fastnoise.models.dvl.config``), optionally with ``"report"``.

Picture settings (``"report"``): imu: ``rate`` (Hz, default 100), ``samples`` (default
262144); lidar and range: ``distances`` (m, default [1, 5, 10, 20, 50]),
``points_per_distance`` (default 20000); camera: ``crop`` (pixels, default 48); dvl:
``samples`` (default 20000).

Example (an IMU)::

    {"params": {"gyro": {"noise_density": 1e-4, "gauss_markov_stddev": 3e-4,
                         "gauss_markov_correlation_time": 400,
                         "gauss_markov_steady_state": true},
                "accel": {"noise_density": 2e-3}},
     "seed": 1, "report": {"rate": 200, "samples": 1000000}}
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastnoise.analysis import plots as _plots
from fastnoise.core import registry
from fastnoise.core.model import STATE_KEYS

if TYPE_CHECKING:  # pragma: no cover
    from fastnoise.analysis.fit import NoiseFit

__all__ = [
    "MODEL_NAMES",
    "Section",
    "fit_report",
    "load_model_config",
    "model_report",
    "write_html",
]

#: ``fastnoise report`` model names -> registered model names.
MODEL_NAMES = {
    "imu": "imu",
    "lidar": "lidar",
    "range": "range",
    "camera": "camera",
    "dvl": "dvl_simulator",
    "dvl_simulator": "dvl_simulator",
}
_REPORT_KEYS = {
    "imu": ("rate", "samples"),
    "lidar": ("distances", "points_per_distance"),
    "range": ("distances", "points_per_distance"),
    "camera": ("crop",),
    "dvl_simulator": ("samples",),
}


@dataclass(frozen=True)
class Section:
    """One part of an HTML report: a heading, an optional image (a path relative to the
    page) and optional preformatted text."""

    heading: str
    image: str | None = None
    text: str | None = None


def write_html(path: str | os.PathLike[str], title: str, sections: Sequence[Section]) -> Path:
    """Write a self-contained HTML page (images by relative link) and return its path."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:1400px}"
        "img{max-width:100%;border:1px solid #ccc}pre{background:#f6f6f6;padding:1em;"
        "overflow-x:auto}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    for s in sections:
        parts.append(f"<h2>{html.escape(s.heading)}</h2>")
        if s.image is not None:
            src = html.escape(s.image, quote=True)
            parts.append(
                f'<p><a href="{src}"><img src="{src}" alt="{html.escape(s.heading)}"></a></p>'
            )
        if s.text is not None:
            parts.append(f"<pre>{html.escape(s.text)}</pre>")
    parts.append("</body></html>")
    out = Path(path)
    out.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return out


def _json_default(value: object) -> object:
    if hasattr(value, "tolist"):
        return value.tolist()  # numpy scalars and arrays
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def fit_report(
    fit: NoiseFit,
    out_dir: str | os.PathLike[str],
    *,
    source: str = "log",
    plots: bool = True,
    say: Callable[[str], None] | None = None,
) -> dict[str, Path]:
    """Write a fit's files into ``out_dir`` (created): ``fit.json`` (the estimates, the
    intervals, the Allan deviation, and the TriadNoise fields ready for
    ``TriadNoise(**d)``), ``allan_fit.png`` (with ``plots`` and matplotlib), and
    ``index.html`` gathering them. Returns name -> path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tell = say or (lambda _line: None)
    files: dict[str, Path] = {}
    data = fit.to_dict()
    data["source"] = source
    (out / "fit.json").write_text(
        json.dumps(data, indent=1, default=_json_default) + "\n", encoding="utf-8"
    )
    files["json"] = out / "fit.json"
    sections = [Section("Fitted terms", text=fit.table())]
    if plots:
        try:
            tell("writing allan_fit.png")
            _plots.plot_allan_fit(fit, out / "allan_fit.png", title=f"Allan deviation of {source}")
            files["allan_fit"] = out / "allan_fit.png"
            sections.insert(0, Section("Allan deviation and fitted model", image="allan_fit.png"))
        except ImportError as exc:
            tell(f"no picture: {exc}")
    if len(fit.axes) % 3 == 0:
        triads = json.dumps([t.to_dict() for t in fit.triads], indent=1, default=_json_default)
        sections.append(Section("TriadNoise fields (gyro, accel for an IMU log)", text=triads))
    files["html"] = write_html(out / "index.html", f"fastnoise fit: {source}", sections)
    return files


def load_model_config(
    model: str, config: str | os.PathLike[str] | Mapping[str, Any], *, seed: int | None = None
) -> tuple[Any, dict[str, Any]]:
    """Build the model named ``model`` (imu, lidar, range, camera, dvl) from a
    configuration (a JSON file path or the parsed object; layouts in the module notes).
    ``seed`` overrides the configuration's seed. Returns (model, picture settings)."""
    if not isinstance(model, str) or model not in MODEL_NAMES:
        raise ValueError(f"model={model!r} is not allowed: use one of {sorted(MODEL_NAMES)}")
    name = MODEL_NAMES[model]
    if isinstance(config, Mapping):
        data: Any = dict(config)
    else:
        with open(config, encoding="utf-8") as f:
            try:
                data = json.load(f)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{config}: not a valid JSON file: {exc}") from None
            except RecursionError:
                raise ValueError(
                    f"{config}: nested too deeply to be read (a report configuration is "
                    "a JSON object of a few levels)"
                ) from None
    if not isinstance(data, dict):
        raise TypeError(f"config must be a JSON object, got {type(data).__name__}")
    settings = data.pop("report", {}) if isinstance(data.get("report", {}), dict) else None
    if settings is None:
        raise TypeError(f"config['report']={data['report']!r} is not allowed: use an object")
    unknown = sorted(set(settings) - set(_REPORT_KEYS[name]))
    if unknown:
        raise ValueError(
            f"config['report'] has unknown entries {unknown}: allowed for {model} are "
            f"{list(_REPORT_KEYS[name])}"
        )
    cls: Any = registry.get(name).cls
    if all(k in data for k in STATE_KEYS):
        if data["model"] != name:
            raise ValueError(
                f"config holds the state of a {data['model']!r} model: it must be {name!r}"
            )
        obj = cls.from_state(data)
        if seed is not None:
            params = obj.state["params"]
            obj = cls(**params, seed=seed)
        return obj, settings
    if name == "dvl_simulator" and "params" not in data:
        if seed is not None:
            data["seed"] = seed
        return cls.from_config(data), settings
    extra = sorted(set(data) - {"params", "seed"})
    if extra:
        raise ValueError(
            f"config has unknown entries {extra}: use 'params', 'seed' and 'report' (or "
            "a saved model state)"
        )
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise TypeError(f"config['params']={params!r} is not allowed: use an object")
    use_seed = seed if seed is not None else data.get("seed")
    return cls(**params, seed=use_seed), settings


def model_report(
    model: str,
    config: str | os.PathLike[str] | Mapping[str, Any],
    out_dir: str | os.PathLike[str],
    *,
    seed: int | None = None,
    say: Callable[[str], None] | None = None,
) -> dict[str, Path]:
    """Pictures of a configured model in ``out_dir`` (created): ``<model>.png`` and
    ``index.html`` (with the configuration). IMU: the Allan deviation of a simulated
    stationary log with the theory per term; lidar/range: range and angular errors;
    camera: crops and the noise histogram; dvl: error distributions and composites.
    Returns name -> path."""
    tell = say or (lambda _line: None)
    obj, settings = load_model_config(model, config, seed=seed)
    name = MODEL_NAMES[model]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    png = out / f"{model}.png"
    tell(f"simulating and drawing {png.name}")
    if name == "imu":
        rate = float(settings.get("rate", 100.0))
        samples = int(settings.get("samples", 2**18))
        _plots.plot_allan_model(obj, 1.0 / rate, png, n_samples=samples)
    elif name in ("lidar", "range"):
        _plots.plot_lidar(
            obj,
            png,
            distances=settings.get("distances", (1.0, 5.0, 10.0, 20.0, 50.0)),
            points_per_distance=int(settings.get("points_per_distance", 20_000)),
        )
    elif name == "camera":
        _plots.plot_camera(obj, png, crop=int(settings.get("crop", 48)))
    else:
        _plots.plot_dvl(obj, png, n=int(settings.get("samples", 20_000)))
    state = obj.state
    text = json.dumps(state["params"], indent=1, default=_json_default)
    sections = [Section(f"{model} noise", image=png.name), Section("Parameters", text=text)]
    page = write_html(out / "index.html", f"fastnoise report: {model}", sections)
    return {"png": png, "html": page}
