"""Round BS's structural changes, one per kind of batch BS's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- uv naming the machine's manylinux tag below every Linux wheel of the release for its architecture: the glibc is too
  old (not "no wheel for this Python"), unless the text says the glibc was already updated (uv's cached interpreter);
- a package's own `_C` imported relatively ("from . import _C" under its frame) failing as Windows' "procedure not
  found": the package's compiled module, built for another torch;
- claims in words: outdated NVIDIA drivers; a glibc "too low"; an install step that reinstalls torch for the CPU;
  "CUDA mismatch between installed and PyTorch"; a release without manylinux wheels; a Blackwell card that falls
  back to the CPU where a cu128 build is the way out;
- conda's ResolvePackageNotFound on an aarch64 machine listing the stack's own packages: no build for the platform
  (the old pytorch channel's cuda90 alone on a Mac stays silent, as CUDA's other packages do);
- silences: MKL's iJIT_ symbols missing at link time (the __cxx11 lines beside them are not the ABI setting); a wheel
  said not to work is one that exists (the aarch64 page-size build of torch 1.8).

Each kind has a text it must stay silent on, or still read. The texts are written for the tests (the kind, not a
report's wording), except uv's messages, which are uv's own.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref

# uv 0.13.9's own words, run here (uv pip compile --python-platform x86_64-manylinux_2_17 against a find-links
# folder holding torch-2.7.0-py3-none-manylinux_2_28_x86_64.whl and torch-2.7.0-py3-none-win_amd64.whl)
_UV_RESOLVER = (
    "error: No solution found when resolving dependencies\n"
    "  cause: Because torch==2.7.0 has no wheels with a matching platform tag (e.g., `manylinux_2_17_x86_64`) and "
    "you require torch==2.7.0, we can conclude that your requirements are unsatisfiable.\n\n"
    "hint: Wheels are available for `torch` (v2.7.0) on the following platforms: {tags}\n"
)
# uv sync's form of it, as a user pasted it (astral-sh/uv#14268)
_UV_SYNC = (
    "error: Distribution `torch==2.7.0 @ registry+https://pypi.org/simple` can't be installed because it doesn't have "
    "a source distribution or wheel for the current platform\n\n"
    "hint: You're on Linux (`manylinux_2_27_x86_64`), but `torch` (v2.7.0) only has wheels for the following "
    "platforms: `manylinux_2_28_aarch64`, `manylinux_2_28_x86_64`, `macosx_11_0_arm64`, `win_amd64`\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (_UV_RESOLVER.format(tags="`manylinux_2_28_x86_64`, `win_amd64`"), "glibc-too-old"),
        (_UV_SYNC, "glibc-too-old"),
        # the user's glibc already updated: uv reports an interpreter it cached (settled by --refresh)
        (_UV_SYNC + "I have updated my system's GLIBC and confirmed that `manylinux_2_28` is supported.", "none"),
        # a wheel for the machine's architecture whose floor the machine meets: not its glibc
        (_UV_RESOLVER.format(tags="`manylinux_2_17_x86_64`, `manylinux_2_28_x86_64`"), "python-unsupported"),
        # wheels for another architecture only: no build for this platform
        (_UV_RESOLVER.format(tags="`manylinux_2_28_aarch64`, `win_amd64`"), "python-unsupported"),
    ],
)
def test_uv_naming_a_machine_tag_below_every_linux_wheel(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_FRAME = (
    'Traceback (most recent call last):\n  File "C:\\work\\app.py", line 3, in <module>\n    import {pkg}\n'
    '  File "C:\\Users\\me\\envs\\app\\lib\\site-packages\\{pkg}\\__init__.py", line 15, in <module>\n'
    "    from . import _C\n"
    "ImportError: DLL load failed while importing _C: {message}\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            _FRAME.format(pkg="simple_rasterizer", message="The specified procedure could not be found."),
            "extension-torch-mismatch",
        ),
        (
            _FRAME.format(
                pkg="simple_rasterizer",
                message="\u6307\u5b9a\u3055\u308c\u305f\u30d7\u30ed\u30b7\u30fc\u30b8\u30e3\u304c\u898b\u3064\u304b\u308a\u307e\u305b\u3093\u3002",
            ),
            "extension-torch-mismatch",
        ),
        # torch's own _C, imported by its __init__: a broken torch, not an extension
        (_FRAME.format(pkg="torch", message="The specified procedure could not be found."), "none"),
    ],
)
def test_a_packages_own_relative_c_failing_as_procedure_not_found(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Upgrading torch to 2.12 on the runner fails: an error with outdated NVIDIA drivers.", "driver-too-old"),
        # a driver of something else, nothing of NVIDIA's or a GPU's
        ("The scanner app fails with outdated printer drivers.", "none"),
        ("Installing the package fails because the glibc version is too low on this cluster.", "glibc-too-old"),
        ("Training stops because the learning rate is too low.", "none"),
        (
            "I installed pytorch for CUDA, but running your requirements file uninstalls the version for cuda and "
            "reinstalls it for CPU.",
            "cpu-only-build",
        ),
        # no NVIDIA GPU to lose
        ("On my MacBook the requirements file uninstalls pytorch and reinstalls it for CPU.", "none"),
        ("CUDA mismatch between installed and PyTorch breaks the extension build", "toolkit-torch-cuda-mismatch"),
        # the driver's CUDA is the driver's
        ("CUDA mismatch between installed driver and PyTorch", "driver-too-old"),
        ("torch 1.1.0.post2 doesn't contain manylinux wheel files, only macOS ones.", "python-unsupported"),
        # the reason given is glibc: that claim's
        (
            "I can't install any of the manylinux wheels: they require glibc 2.34, too new for my system.",
            "glibc-too-old",
        ),
        (
            "Inference with Blackwell GPUs defaults to using CPU; installing torch from the cu128 index fixes it.",
            "arch-not-compiled",
        ),
        # no build named that carries the card's kernels: nothing says why
        ("Inference with Blackwell GPUs defaults to using CPU.", "none"),
    ],
)
def test_causes_said_in_words(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_RESOLVE = "conda env create -f environment.yaml\nResolvePackageNotFound:\n{specs}\n"


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            _RESOLVE.format(specs="  - cudatoolkit=11.3\n  - pytorch=1.11.0\n  - python=3.8.5")
            + "OS: Ubuntu 22.04.1 LTS aarch64",
            "python-unsupported",
        ),
        # the old pytorch channel's CUDA metapackage alone, on a Mac: the environment file is Linux's
        (_RESOLVE.format(specs="  - cuda90") + "OS: macOS 10.13", "none"),
        # the stack's packages missing on an x86_64 machine: a channel or a pin, not the platform
        (_RESOLVE.format(specs="  - cudatoolkit=11.3\n  - pytorch=1.11.0"), "none"),
    ],
)
def test_conda_resolve_package_not_found_on_a_platform_without_builds(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


_LINK = (
    "{lib}: undefined reference to `{sym}'\n"
    "/opt/env/lib/libfcl.so: undefined reference to `std::__cxx11::basic_ostringstream<char, "
    "std::char_traits<char>, std::allocator<char> >::basic_ostringstream()@GLIBCXX_3.4.26'\n"
)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            _LINK.format(lib="/opt/env/lib/python3.9/site-packages/torch/lib/libtorch_cpu.so", sym="iJIT_NotifyEvent"),
            "none",
        ),
        # the same __cxx11 line beside another library's missing function: still the ABI claim's
        (_LINK.format(lib="/opt/env/lib/libfoo.so", sym="foo_init"), "cxx11-abi-mismatch"),
        (
            "The v1.8 whls (torch-1.8.0-cp3X-cp3Xm-manylinux2014_aarch64.whl) does not work with CentOS 8:\n"
            "OSError: libtorch_global_deps.so: ELF load command alignment not page-aligned",
            "none",
        ),
        # a wheel said missing for the platform is still none published there
        ("There is no aarch64 wheel for this release.", "python-unsupported"),
    ],
)
def test_silent_where_the_failure_is_another_one(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
