"""A reader of CANN's ATK system-test specifications (``<op dir>/tests/st/aclnnXxx/atk_aclnnXxx.json``).

Each file is a list of cases: the torch function ATK compares with (``"name"``), ``"inputs"`` in
the order of the aclnn API's parameters and ``"aclnn_name"``. An input is a dict with ``type``
``tensor`` / ``scalar`` / ``attr`` (a plain value: ``dim``, ``keepdim``, ``reduction``, ``beta``,
``scale``, Cast's and ReduceSum's ``dtype`` as an aclDataType number) or ``attrs`` (an element of
an int-array parameter: the array is written as a *list* of such dicts, All/Any/ReduceSum's dims);
an attr of dtype ``non_param`` (``format``) is no API parameter but the tensors' format label, and
a tensor may carry its own ``"format": ["ND"]``. ``dtype`` is ATK's name (``fp32``, ``bf16``,
``int8`` ...). ``range_values`` says how ATK makes the values:

* ``[lo, hi]`` numbers (or bools): uniform in the closed range (clipped to the dtype's range);
* one number or bool: every element that value; ``"inf"``, ``"-inf"``, ``"nan"`` (or a one-element
  list of those): every element that special value (an integer dtype: its max / min; ``nan`` for an
  integer dtype is not mappable);
* ``["-inf", "inf"]``: the dtype's whole range: integers uniform over it, floats with a random sign
  and a magnitude log-uniform over the dtype's normal exponents (so huge and tiny values, overflow
  included);
* ``{"name": "nd", "mean": [a, b], "std": [c, d]}``: normal values, the mean and the standard
  deviation drawn uniformly from those ranges (integers rounded, bool: nonzero);
* ``"null"`` / ``["null"]``: not mappable (ATK's meaning is not in the repositories).

An attr written with a ``[lo, hi]`` range (ScaledMaskedSoftmax's ``scale``) is drawn like a scalar.
In-place APIs (``aclnnInplaceXxx``) take their first tensor as ``selfRef``. Cases the reader
cannot map are returned with ``skip`` set to the reason, never guessed. Values are made from a
numpy Generator seeded by the API name and case id, so every run sees the same inputs.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np

# ATK's dtype names -> numpy
DTYPES: dict[str, Any] = {
    "fp32": np.float32,
    "fp16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "fp64": np.float64,
    "int8": np.int8,
    "int16": np.int16,
    "int32": np.int32,
    "int64": np.int64,
    "uint8": np.uint8,
    "bool": np.bool_,
    "complex64": np.complex64,
    "complex128": np.complex128,
}
# aclDataType numbers the specs use for Cast's / ReduceSum's ``dtype`` attr -> ATK's dtype name
# (the cast_map of math/cast/tests/st/aclnnCast/executor_aclnnCast.py)
ACL_DTYPE_IDS: dict[int, str] = {
    0: "fp32", 1: "fp16", 2: "int8", 3: "int32", 4: "uint8", 6: "int16", 9: "int64",
    11: "fp64", 12: "bool", 16: "complex64", 17: "complex128", 27: "bf16",
}  # fmt: skip

FORMATS = {"ND", "NCL", "NCHW", "NCDHW"}  # the format labels the reader maps (all plain layouts)


class Unmappable(Exception):
    """A case (or one of its inputs) the reader cannot map to the API's arguments."""


# ---------------------------------------------------------------------------------------------
# inputs
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tensor:
    dtype: str
    shape: tuple[int, ...]
    range: Any

    @property
    def size(self) -> int:
        return math.prod(self.shape)


@dataclass(frozen=True)
class Scalar:
    dtype: str
    range: Any


@dataclass(frozen=True)
class Drawn:
    """An attr whose value ATK draws from a range (a double ``scale`` written ``[0, 1]``)."""

    kind: str
    range: tuple[float, float]


@dataclass
class Case:
    api: str  # aclnnMul
    id: int
    file: Path
    soc: str  # Ascend910B, or Ascend950 for a spec under an arch35 folder
    torch_name: str  # what ATK compares with (the case's "name")
    standard: Any  # the case's accuracy standard ("default", "md5", {"single_bm": ...})
    tensors: list[Tensor] = field(default_factory=list)  # in parameter order
    scalars: list[Scalar] = field(default_factory=list)
    attrs: dict[str, Any] = field(default_factory=dict)  # name (or position "attr<i>") -> value / Drawn
    int_arrays: list[list[int]] = field(default_factory=list)
    format: str = "ND"
    skip: str | None = None

    @property
    def key(self) -> str:
        return f"{self.api}#{self.id}"

    @property
    def size(self) -> int:
        return sum(t.size for t in self.tensors)

    @property
    def exact(self) -> bool:
        """The standard asks for bitwise equality (``md5`` / ``equal``)."""
        return self.standard in ("md5", "equal")


def _dtype(name: Any) -> str:
    if name not in DTYPES:
        raise Unmappable(f"dtype {name!r} unknown")
    return str(name)


def _format_of(value: Any) -> str:
    fmt = value[0] if isinstance(value, list) and len(set(value)) == 1 else value
    if not isinstance(fmt, str) or fmt not in FORMATS:
        raise Unmappable(f"format {value!r}: no executor says which tensor takes which format")
    return fmt


def _parse(case: Case, inputs: list[Any]) -> None:
    formats: set[str] = set()
    for pos, item in enumerate(inputs):
        if isinstance(item, list):  # an int array: a list of "attrs" elements
            if not all(
                isinstance(e, dict) and e.get("type") == "attrs" and isinstance(e.get("range_values"), int)
                for e in item
            ):
                raise Unmappable("a list input that is not an int array of constants")
            case.int_arrays.append([int(e["range_values"]) for e in item])
            continue
        kind, rv = item.get("type"), item.get("range_values")
        if not item.get("required", True) and rv is None:
            raise Unmappable("an optional input left out")
        if "format" in item and kind == "tensor":  # a scalar's format label means nothing
            formats.add(_format_of(item["format"]))
        if kind == "tensor":
            shape = item.get("shape")
            if not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape):
                raise Unmappable(f"tensor shape {shape!r}")
            case.tensors.append(Tensor(_dtype(item.get("dtype")), tuple(shape), rv))
        elif kind == "scalar":
            case.scalars.append(Scalar(_dtype(item.get("dtype")), rv))
        elif kind == "attr" and item.get("dtype") == "non_param":
            if item.get("name") not in ("format", "formate"):
                raise Unmappable(f"non_param attr {item.get('name')!r}")
            formats.add(_format_of(rv))
        elif kind == "attr":
            name = item.get("name") or f"attr{pos}"
            if isinstance(rv, list):
                if len(rv) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in rv):
                    raise Unmappable(f"attr {name} range {rv!r}")
                case.attrs[name] = Drawn(str(item.get("dtype")), (float(rv[0]), float(rv[1])))
            elif isinstance(rv, (bool, int, float)):
                case.attrs[name] = rv
            else:
                raise Unmappable(f"attr {name} value {rv!r}")
        else:
            raise Unmappable(f"input type {kind!r}")
    if len(formats) > 1:
        raise Unmappable(f"mixed formats {sorted(formats)}")
    case.format = formats.pop() if formats else "ND"
    for t in (*case.tensors, *case.scalars):
        _check_range(t.dtype, t.range)


def _check_range(dtype: str, rv: Any) -> None:
    """Refuse at read time the ranges ``make`` could not honour."""
    if isinstance(rv, list) and len(rv) == 1:
        rv = rv[0]
    if rv in ("null", None):
        raise Unmappable("range_values null")
    if isinstance(rv, str):
        if rv not in ("inf", "-inf", "nan"):
            raise Unmappable(f"range_values {rv!r}")
        if rv == "nan" and _kind(dtype) in "biu":
            raise Unmappable(f"nan for {dtype}")
    elif isinstance(rv, dict):
        if rv.get("name") != "nd" or len(rv.get("mean", ())) != 2 or len(rv.get("std", ())) != 2:
            raise Unmappable(f"range_values {rv!r}")
    elif isinstance(rv, list):
        if len(rv) != 2:
            raise Unmappable(f"range_values {rv!r}")
        if any(isinstance(v, str) for v in rv) and rv != ["-inf", "inf"]:
            raise Unmappable(f"range_values {rv!r}")
    elif not isinstance(rv, (bool, int, float)):
        raise Unmappable(f"range_values {rv!r}")


# ---------------------------------------------------------------------------------------------
# the specs
# ---------------------------------------------------------------------------------------------

# the parameters each API's spec must give, in order: T tensor, S scalar, A attr, L int array
# (checked against the aclnn document's prototype; format attrs are not counted)
SIGNATURES: dict[str, str] = {
    **{a: "TTS" for a in ("aclnnAdd", "aclnnSub")},
    **{a: "TSS" for a in ("aclnnAdds", "aclnnSubs", "aclnnClamp")},
    **{a: "TT" for a in ("aclnnMul", "aclnnDiv", "aclnnMaximum", "aclnnMinimum", "aclnnInplaceCopy")},
    **{f"aclnn{c}Tensor": "TT" for c in ("Eq", "Ne", "Gt", "Ge", "Lt", "Le")},
    **{f"aclnn{c}Scalar": "TS" for c in ("Eq", "Ne", "Gt", "Ge", "Lt", "Le")},
    **{a: "TS" for a in ("aclnnMuls", "aclnnDivs", "aclnnClampMin", "aclnnClampMax", "aclnnInplaceFillScalar")},
    **{a: "T" for a in ("aclnnInplaceZero", "aclnnInplaceOne", "aclnnSign")},
    "aclnnCast": "TA",
    "aclnnAll": "TLA",
    "aclnnAny": "TLA",
    "aclnnReduceSum": "TLAA",
    "aclnnIndexSelect": "TAT",
    "aclnnSoftmax": "TA",
    "aclnnSmoothL1Loss": "TTAA",
    "aclnnSmoothL1LossBackward": "TTTAA",
    "aclnnScaledMaskedSoftmax": "TTAA",
    "aclnnScaledMaskedSoftmaxBackward": "TTTAA",
}


def _signature(inputs: list[Any]) -> str:
    out = []
    for item in inputs:
        if isinstance(item, list):
            out.append("L")
        elif item.get("type") == "attr" and item.get("dtype") == "non_param":
            continue
        else:
            out.append({"tensor": "T", "scalar": "S", "attr": "A"}.get(item.get("type"), "?"))
    return "".join(out)


def spec_files(root: Path) -> Iterator[tuple[str, Path]]:
    """(API name, file) of every ATK spec under ``root`` (``experimental`` trees left out)."""
    for path in sorted(root.rglob("atk_aclnn*.json")):
        if "experimental" in path.parts:
            continue
        yield path.stem.removeprefix("atk_"), path


def read(root: Path, apis: set[str]) -> list[Case]:
    """Every case of the specs of ``apis`` under ``root``, mapped or with ``skip`` set."""
    cases = []
    for api, path in spec_files(root):
        if api not in apis:
            continue
        soc = "Ascend950" if "arch35" in path.parts else "Ascend910B"
        for i, raw in enumerate(json.loads(path.read_text())):
            case = Case(
                api=api, id=int(raw.get("id", i)), file=path, soc=soc,
                torch_name=str(raw.get("name")), standard=(raw.get("standard") or {}).get("acc"),
            )  # fmt: skip
            try:
                inputs = raw["inputs"]
                want = SIGNATURES.get(api)
                if want is None:
                    raise Unmappable("no mapping for this API")
                if (got := _signature(inputs)) != want:
                    raise Unmappable(f"inputs {got} where the prototype needs {want}")
                _parse(case, inputs)
            except Unmappable as exc:
                case.skip = str(exc)
            cases.append(case)
    return cases


# ---------------------------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------------------------


def _kind(dtype: str) -> str:
    return np.dtype(DTYPES[dtype]).kind  # b i u f c (bf16: V -> treated as f below)


def _is_float(dtype: str) -> bool:
    return dtype in ("fp16", "bf16", "fp32", "fp64")


def _limits(dtype: str) -> tuple[float, float]:
    npdt = DTYPES[dtype]
    if dtype == "bool":
        return 0, 1
    if _kind(dtype) in "iu":
        info = np.iinfo(npdt)
        return int(info.min), int(info.max)
    info = (
        ml_dtypes.finfo(npdt)
        if dtype == "bf16"
        else np.finfo(np.float32 if dtype == "complex64" else np.float64 if dtype == "complex128" else npdt)
    )
    return -float(info.max), float(info.max)


def _special(dtype: str, word: str) -> float:
    lo, hi = _limits(dtype)
    if _kind(dtype) in "biu":
        return hi if word == "inf" else lo
    return float(word)


def _real(dtype: str, rv: Any, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` values (float64, or Python ints as int64/object for integer dtypes) for ``rv``."""
    lo_d, hi_d = _limits(dtype)
    integer = _kind(dtype) in "biu"
    if isinstance(rv, list) and len(rv) == 1:
        rv = rv[0]
    if isinstance(rv, str):
        return np.full(n, _special(dtype, rv))
    if isinstance(rv, (bool, int, float)):
        return np.full(
            n, float(rv) if not integer else int(np.clip(rv, lo_d, hi_d)), dtype=np.float64 if not integer else np.int64
        )
    if isinstance(rv, dict):
        mean = rng.uniform(*rv["mean"])
        std = rng.uniform(*rv["std"])
        v = rng.normal(mean, std, n)
        return np.clip(np.rint(v), lo_d, hi_d) if integer else v
    if rv == ["-inf", "inf"]:
        if integer:
            return rng.integers(lo_d, hi_d, n, endpoint=True, dtype=np.int64)
        finfo = (
            ml_dtypes.finfo(DTYPES[dtype])
            if dtype == "bf16"
            else np.finfo(
                np.float32 if dtype == "complex64" else np.float64 if dtype == "complex128" else DTYPES[dtype]
            )
        )
        e = rng.uniform(math.log2(float(finfo.tiny)), math.log2(float(finfo.max)), n)
        return np.where(rng.random(n) < 0.5, -1.0, 1.0) * np.exp2(e)
    lo, hi = (float(v) for v in rv)
    lo, hi = min(lo, hi), max(lo, hi)
    if integer:
        lo, hi = max(math.ceil(lo), lo_d), min(math.floor(hi), hi_d)
        if lo > hi:
            return np.full(n, lo_d, dtype=np.int64)
        return rng.integers(int(lo), int(hi), n, endpoint=True, dtype=np.int64)
    return rng.uniform(lo, hi, n)


def values(dtype: str, shape: tuple[int, ...], rv: Any, rng: np.random.Generator) -> np.ndarray:
    """An array of ATK dtype ``dtype`` and ``shape`` made as ``rv`` says."""
    n = math.prod(shape)
    npdt = DTYPES[dtype]
    if dtype == "bool":
        if isinstance(rv, list) and len(rv) == 2 and all(isinstance(v, bool) for v in rv):
            a = rng.random(n) < 0.5 if rv[0] != rv[1] else np.full(n, rv[0])
        else:
            a = _real("int64", rv, n, rng) != 0 if not isinstance(rv, bool) else np.full(n, rv)
        return np.asarray(a, dtype=np.bool_).reshape(shape)
    if _kind(dtype) == "c":
        part = "fp32" if dtype == "complex64" else "fp64"
        a = _real(part, rv, n, rng) + 1j * _real(part, rv, n, rng)
    else:
        a = _real(dtype, rv, n, rng)
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(a).astype(npdt).reshape(shape)


def scalar(s: Scalar, rng: np.random.Generator) -> Any:
    """The scalar's value: a numpy scalar of its dtype (a Python bool for bool)."""
    v = values(s.dtype, (), s.range, rng)[()]
    return bool(v) if s.dtype == "bool" else v


def rng_for(case: Case) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(case.key.encode()))


def attr_value(v: Any, rng: np.random.Generator) -> Any:
    if isinstance(v, Drawn):
        return float(rng.uniform(*v.range))
    return v


# ---------------------------------------------------------------------------------------------
# result dtypes (the out tensor ATK makes is the golden's: torch's type promotion)
# ---------------------------------------------------------------------------------------------

_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}


def category(dtype: str) -> int:
    return 2 if dtype == "bf16" else _CATEGORY[_kind(dtype)]


def promote(a: str, b: str) -> str:
    """torch.promote_types for the ATK dtypes."""
    if a == b:
        return a
    ca, cb = category(a), category(b)
    if ca != cb:
        hi, lo = (a, b) if ca > cb else (b, a)
        if category(hi) == 3 and lo in ("fp64",):
            return "complex128"
        return hi
    if ca == 0:
        return a
    if ca == 1:
        return {np.dtype(v): k for k, v in DTYPES.items()}[np.promote_types(DTYPES[a], DTYPES[b])]
    if ca == 2:
        order = ["fp16", "bf16", "fp32", "fp64"]
        if {a, b} == {"fp16", "bf16"}:
            return "fp32"
        return max(a, b, key=order.index)
    return "complex128"


_DEFAULT = {0: "bool", 1: "int64", 2: "fp32", 3: "complex64"}


def _combine(higher: str | None, lower: str | None) -> str | None:
    """c10's combine_categories."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if category(higher) == 3:
        return higher
    if category(lower) == 3:
        return "complex128" if higher == "fp64" else "complex64" if category(higher) == 2 else lower
    if category(higher) == 2:
        return higher
    if higher == "bool" or category(lower) == 2:
        return promote(higher, lower)
    return higher


def result_type(tensors: list[Tensor], scalars: list[str] = ()) -> str:  # type: ignore[assignment]
    """torch.result_type: dimensioned tensors, then 0-d tensors, then wrapped numbers (a scalar
    counts by its category only)."""
    dim = zero = wrapped = None
    for t in tensors:
        if t.shape:
            dim = t.dtype if dim is None else promote(dim, t.dtype)
        else:
            zero = t.dtype if zero is None else promote(zero, t.dtype)
    for s in scalars:
        d = _DEFAULT[category(s)]
        wrapped = d if wrapped is None else promote(wrapped, d)
    out = _combine(dim, _combine(zero, wrapped))
    assert out is not None
    return out
