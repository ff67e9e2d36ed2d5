"""Prove one plan step inside its own environment: `python -m envplan.verify.inenv EXPECT.json [--report FILE]`.

Standard library only (plus what the step installed): the plan directory carries a copy of this file as
`envplan_verify.py`, so a step environment never needs envplan itself. Expectations are data (JSON), never
code. Each check prints one line; a failed one says what was expected, what was found and the likely cause.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import traceback
from collections.abc import Callable
from functools import partial
from typing import Any

__all__ = ["SMOKES", "TORCH_NAMESPACE", "main", "observe", "symbol_verdict"]

# extensions whose smoke call (a real kernel on a small input, with the output shape checked) this verifier knows
SMOKES = frozenset(
    {"causal-conv1d", "flash-attn", "xformers", "mamba-ssm", "apex", "torch-scatter", "torch-sparse", "detectron2"}
)

_NEW_STRING = "NSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
# a mangled name in torch's C++ namespaces (c10, at, torch, caffe2): the one definition, abi-check uses it too
TORCH_NAMESPACE = re.compile(r"^_Z(?:N|NK|TI|TS|TV|ZN|TVN|TIN|TSN)*\d*(?:3c10|2at|5torch|6caffe2)")
_CUDA_NAME = re.compile(r"^(?:cuda|cublas|cudnn|cufft|curand|cusparse|cusolver|nccl|nvrtc|__cuda)", re.I)


def symbol_verdict(symbol: str, demangled: str, torch_defined: frozenset[str] | set[str] = frozenset()) -> str:
    """Why a dynamic symbol an extension needs is missing: the kind of mismatch its mangling shows."""
    if _NEW_STRING in symbol or "B5cxx11" in symbol or "__cxx11" in demangled:
        return "cxx11-abi-new"
    if "Ss" in symbol and symbol.replace("Ss", _NEW_STRING) in torch_defined:
        return "cxx11-abi-old"
    old_string = re.search(r"std::(string|basic_string<char)", demangled) and "__cxx11" not in demangled
    if old_string and TORCH_NAMESPACE.match(symbol):
        return "cxx11-abi-old"
    if TORCH_NAMESPACE.match(symbol):
        return "torch-version"
    if _CUDA_NAME.match(symbol) or _CUDA_NAME.match(demangled):
        return "cuda-runtime"
    return "unresolved"


CAUSES = {
    "cxx11-abi-new": "the extension was built with _GLIBCXX_USE_CXX11_ABI=1 and this torch with 0",
    "cxx11-abi-old": "the extension was built with _GLIBCXX_USE_CXX11_ABI=0 and this torch with 1",
    "torch-version": "the extension was built against another torch version: rebuild it (build.sh)",
    "cuda-runtime": "the extension was built for another CUDA",
    "unresolved": "a shared library it needs is missing or different",
}


class Checks:
    """Runs checks, prints one line each, and keeps the results for the report."""

    def __init__(self) -> None:
        self.results: list[dict[str, str]] = []

    def record(self, name: str, status: str, detail: str = "") -> None:
        self.results.append({"check": name, "status": status, "detail": detail})
        print(f"{status:>7}  {name}" + (f": {detail}" if detail else ""), flush=True)

    def run(self, name: str, fn: Callable[[], str | None]) -> None:
        try:
            detail = fn()
        except Skip as skip:
            self.record(name, "skipped", str(skip))
        except Exception as exc:  # a failed check is reported, never a crash of the verifier
            self.record(name, "FAILED", _explain(exc))
        else:
            self.record(name, "ok", detail or "")

    @property
    def failed(self) -> bool:
        return any(r["status"] == "FAILED" for r in self.results)


class Skip(Exception):
    """A check that cannot run here (no GPU), with the reason."""


class Mismatch(Exception):
    def __init__(self, what: str, expected: object, found: object, cause: str = "") -> None:
        text = f"{what}: expected {expected}, found {found}" + (f" ({cause})" if cause else "")
        super().__init__(text)


def _explain(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    m = re.search(r"undefined symbol: (\S+)", text)
    if m:
        return f"{text} -> {CAUSES[symbol_verdict(m.group(1), m.group(1))]}"
    if "operator torchvision::nms does not exist" in text:
        return f"{text} -> torchvision does not match this torch: install the exact companion"
    if "no kernel image is available" in text:
        return f"{text} -> the GPU's architecture is not compiled into this build"
    return text


def _versions(expect: dict[str, Any]) -> list[tuple[str, Callable[[], str | None]]]:
    checks: list[tuple[str, Callable[[], str | None]]] = []
    for name in ("torch", "torchvision", "torchaudio"):
        want = expect.get(name)
        if want:
            checks.append((f"{name} version", partial(_version_of, name, want)))
    return checks


def _version_of(module: str, want: str) -> str:
    found = str(importlib.import_module(module).__version__)
    if found != want:
        raise Mismatch(f"{module}.__version__", want, found, "the environment was not installed from this step's lock")
    return found


def _torch_build(expect: dict[str, Any]) -> str:
    import torch

    cuda = torch.version.cuda
    if cuda != expect.get("cuda"):
        raise Mismatch("torch.version.cuda", expect.get("cuda"), cuda, "another variant of torch is installed")
    abi = bool(torch._C._GLIBCXX_USE_CXX11_ABI)
    if "cxx11_abi" in expect and abi != expect["cxx11_abi"]:
        raise Mismatch("torch._C._GLIBCXX_USE_CXX11_ABI", expect["cxx11_abi"], abi)
    return f"CUDA {cuda}, C++11 ABI {int(abi)}"


def _matmul() -> str:
    import torch

    a = torch.ones(2, 3)
    product = a @ a.T
    if product.tolist() != [[3.0, 3.0], [3.0, 3.0]]:
        raise Mismatch("(ones(2,3) @ ones(3,2))", [[3.0, 3.0], [3.0, 3.0]], product.tolist())
    return "2x3 @ 3x2"


def _nms() -> str:
    import torch
    import torchvision

    boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0], [1.0, 1.0, 10.0, 10.0], [20.0, 20.0, 30.0, 30.0]])
    keep = torchvision.ops.nms(boxes, torch.tensor([0.9, 0.8, 0.7]), 0.5).tolist()
    if keep != [0, 2]:
        raise Mismatch("torchvision.ops.nms", [0, 2], keep)
    return "kept [0, 2]"


def _torchaudio() -> str:
    import torch
    import torchaudio

    wave = torch.ones(1, 8)
    out = torchaudio.functional.gain(wave, 0.0)
    if out.shape != wave.shape:
        raise Mismatch("torchaudio.functional.gain shape", tuple(wave.shape), tuple(out.shape))
    return "gain on (1, 8)"


def _extension(ext: dict[str, Any]) -> str:
    import torch  # noqa: F401  (an extension's symbols resolve against the loaded torch)

    module = importlib.import_module(ext["import"])
    return f"imported {module.__name__}"


def _gpu(expect: dict[str, Any], require_gpu: bool) -> list[tuple[str, Callable[[], str | None]]]:
    gpus = expect.get("gpus") or []
    if not gpus:
        return []

    def available() -> str:
        import torch

        if not torch.cuda.is_available():
            if require_gpu:
                raise Mismatch("torch.cuda.is_available()", True, False, "no usable GPU, driver or CUDA build")
            raise Skip("no GPU visible here (the profile has " + ", ".join(g["name"] for g in gpus) + ")")
        return f"{torch.cuda.device_count()} device(s)"

    def archs() -> str:
        import torch

        if not torch.cuda.is_available():
            raise Skip("no GPU visible here")
        arch_list = torch.cuda.get_arch_list()
        for i in range(torch.cuda.device_count()):
            major, minor = torch.cuda.get_device_capability(i)
            if not _runs_on((major, minor), arch_list):
                raise Mismatch(
                    f"GPU {i} sm_{major}{minor} in torch.cuda.get_arch_list()",
                    f"sm_{major}{minor}",
                    arch_list,
                    "no kernel image is available for this GPU",
                )
            (torch.ones(4, device=f"cuda:{i}") * 2).sum().item()
        return " ".join(arch_list)

    return [("GPU visible", available), ("GPU architectures and a tensor op on each device", archs)]


def _runs_on(cc: tuple[int, int], arch_list: list[str]) -> bool:
    for arch in arch_list:
        m = re.match(r"(sm|compute)_(\d+?)(\d)a?$", arch)
        if not m:
            continue
        built = (int(m.group(2)), int(m.group(3)))
        if m.group(1) == "sm" and built[0] == cc[0] and built[1] <= cc[1]:
            return True
        if m.group(1) == "compute" and built <= cc:
            return True
    return False


def _shape(what: str, out: Any, want: tuple[int, ...]) -> str:
    if tuple(out.shape) != want:
        raise Mismatch(f"{what} output shape", want, tuple(out.shape))
    return f"{what} on a {want} input"


def _smoke_causal_conv1d(torch: Any) -> str:
    from causal_conv1d import causal_conv1d_fn

    x = torch.randn(1, 3, 100, device="cuda")
    return _shape("causal_conv1d_fn", causal_conv1d_fn(x, torch.randn(3, 4, device="cuda")), (1, 3, 100))


def _smoke_flash_attn(torch: Any) -> str:
    from flash_attn import flash_attn_func

    q = torch.randn(1, 8, 2, 64, device="cuda", dtype=torch.float16)
    return _shape("flash_attn_func", flash_attn_func(q, q, q), (1, 8, 2, 64))


def _smoke_xformers(torch: Any) -> str:
    from xformers.ops import memory_efficient_attention

    q = torch.randn(1, 8, 2, 64, device="cuda", dtype=torch.float16)
    return _shape("xformers memory_efficient_attention", memory_efficient_attention(q, q, q), (1, 8, 2, 64))


def _smoke_mamba(torch: Any) -> str:
    from mamba_ssm import Mamba

    layer = Mamba(d_model=16).to("cuda")
    return _shape("mamba_ssm.Mamba", layer(torch.randn(1, 8, 16, device="cuda")), (1, 8, 16))


def _smoke_apex(torch: Any) -> str:
    from apex.normalization import FusedLayerNorm

    return _shape("apex FusedLayerNorm", FusedLayerNorm(16).to("cuda")(torch.randn(2, 16, device="cuda")), (2, 16))


def _smoke_scatter(torch: Any) -> str:
    from torch_scatter import scatter_add

    index = torch.tensor([0, 0, 1, 1, 2, 2], device="cuda")
    out = scatter_add(torch.ones(6, device="cuda"), index)
    if out.tolist() != [2.0, 2.0, 2.0]:
        raise Mismatch("torch_scatter.scatter_add", [2.0, 2.0, 2.0], out.tolist())
    return "scatter_add on 6 values"


def _smoke_sparse(torch: Any) -> str:
    from torch_sparse import SparseTensor

    mat = SparseTensor(row=torch.tensor([0, 1], device="cuda"), col=torch.tensor([1, 0], device="cuda"))
    return _shape("torch_sparse SparseTensor @ dense", mat @ torch.ones(2, 3, device="cuda"), (2, 3))


def _smoke_detectron2(torch: Any) -> str:
    from detectron2.layers import ROIAlign

    rois = torch.tensor([[0.0, 0.0, 0.0, 4.0, 4.0]], device="cuda")
    pooled = ROIAlign((2, 2), 1.0, 0)(torch.randn(1, 3, 8, 8, device="cuda"), rois)
    return _shape("detectron2 ROIAlign", pooled, (1, 3, 2, 2))


_SMOKE_CALLS: dict[str, Callable[[Any], str]] = {
    "causal-conv1d": _smoke_causal_conv1d,
    "flash-attn": _smoke_flash_attn,
    "xformers": _smoke_xformers,
    "mamba-ssm": _smoke_mamba,
    "apex": _smoke_apex,
    "torch-scatter": _smoke_scatter,
    "torch-sparse": _smoke_sparse,
    "detectron2": _smoke_detectron2,
}


def _smoke(ext: dict[str, Any]) -> str:
    import torch

    if not torch.cuda.is_available():
        raise Skip("no GPU visible here: checked by import only")
    call = _SMOKE_CALLS.get(str(ext.get("smoke")))
    if call is None:
        raise Skip("no smoke call known for it: checked by import only")
    return call(torch)


def verify(expect: dict[str, Any], *, require_gpu: bool = False) -> Checks:
    checks = Checks()
    for name, fn in _versions(expect):
        checks.run(name, fn)
    checks.run("torch build", lambda: _torch_build(expect))
    checks.run("matmul", _matmul)
    if expect.get("torchvision"):
        checks.run("torchvision.ops.nms", _nms)
    if expect.get("torchaudio"):
        checks.run("torchaudio functional op", _torchaudio)
    for ext in expect.get("extensions", []):
        checks.run(f"extension {ext['name']} imports", partial(_extension, ext))
    for name, fn in _gpu(expect, require_gpu):
        checks.run(name, fn)
    for ext in expect.get("extensions", []):
        if ext.get("smoke"):
            checks.run(f"extension {ext['name']} smoke call", partial(_smoke, ext))
    return checks


def observe() -> dict[str, Any]:
    """What this environment really is, for the step's ENVIRONMENT.md."""
    seen: dict[str, Any] = {"python": sys.version.split()[0], "executable": sys.executable}
    try:
        import torch

        seen.update(
            {
                "torch": torch.__version__,
                "cuda": torch.version.cuda,
                "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None,
                "cxx11_abi": bool(torch._C._GLIBCXX_USE_CXX11_ABI),
                "arch_list": torch.cuda.get_arch_list() if torch.cuda.is_available() else [],
                "devices": [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
                if torch.cuda.is_available()
                else [],
            }
        )
    except Exception as exc:  # observing must never fail the verification
        seen["torch_error"] = str(exc)
    env = {k: os.environ[k] for k in ("CUDA_HOME", "LD_LIBRARY_PATH", "TORCH_CUDA_ARCH_LIST") if k in os.environ}
    if env:  # an empty record is noise in ENVIRONMENT.md
        seen["env"] = env
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="envplan.verify.inenv", description=__doc__.splitlines()[0])
    parser.add_argument("expect", help="the step's expect.json")
    parser.add_argument("--report", help="write the results as JSON here")
    parser.add_argument("--require-gpu", action="store_true", default=bool(os.environ.get("ENVPLAN_REQUIRE_GPU")))
    args = parser.parse_args(argv)
    with open(args.expect, encoding="utf-8") as f:
        expect = json.load(f)
    print(f"verifying {expect.get('step', '?')} in {sys.executable}", flush=True)
    try:
        checks = verify(expect, require_gpu=args.require_gpu)
    except Exception:  # pragma: no cover - a bug in the verifier itself
        traceback.print_exc()
        return 2
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            json.dump(
                {"schema": 1, "step": expect.get("step"), "results": checks.results, "observed": observe()}, f, indent=2
            )
    return 1 if checks.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
