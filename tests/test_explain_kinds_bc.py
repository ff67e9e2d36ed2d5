"""Round BC's structural changes, one per kind of batch BC's first-measurement misses that its blind reader named
right (tests/data/explain-corpus/README.md):

- the linker's undefined reference to a C++ library's function taking the pre-C++11 std::string ("cv::imread(std::string
  const&, int)", not std::__cxx11::basic_string), torch not named: code compiled with _GLIBCXX_USE_CXX11_ABI=0 (as
  libtorch's pre-cxx11 download sets) linking a library built with the C++11 ABI;
- a platform's wheel said to be missing from a release ("Windows 64-bit wheel is missing for 0.3.3", "aarch64 linux
  missing from 0.3.3 release"), and pip building a Rust package from source ("can't find Rust compiler");
- torch missing from an extension's isolated build as typed in a title ("no modle named troch").

The texts are written for the tests (the kind, not a report's wording); each kind has a text it must stay silent on.
"""

from __future__ import annotations

import pytest

from envplan.kb import KB
from helpers import assert_first_ref


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        (
            "[100%] Linking CXX executable detector\n/usr/bin/ld: detector.cpp:(.text+0x9f0): undefined reference to "
            "`cv::imread(std::string const&, int)'\ncollect2: error: ld returned 1 exit status",
            "cxx11-abi-mismatch",
        ),
        ("../lib/libSLAM.so: undefined reference to `pangolin::BindToContext(std::string)'", "cxx11-abi-mismatch"),
        # no string in the signature: a library left off the link line
        ("/usr/bin/ld: undefined reference to `cv::Mat::deallocate()'", "none"),
    ],
)
def test_a_link_against_the_pre_cxx11_string(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("Windows 64-bit wheel is missing for 0.3.3\nPython 3.8, Windows 64-bit", "python-unsupported"),
        ("aarch64 linux missing from 0.3.3 release\nOn arm64: pip install fastbits==0.3.3", "python-unsupported"),
        (
            "pip install tokenizers\n  Building wheel for tokenizers (pyproject.toml) ... error\n"
            "  error: can't find Rust compiler",
            "python-unsupported",
        ),
        # a file said missing from a wheel, no platform: another packaging bug
        ("the 0.3.3 wheel is missing its py.typed file", "none"),
    ],
)
def test_a_platform_s_wheel_said_missing(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)


@pytest.mark.parametrize(
    ("text", "ref"),
    [
        ("pip install flash_attn==2.7.4.post1 no modle named troch", "build-isolation-missing-torch"),
        # another module misspelled like it
        ("pip install flash_attn==2.7.4.post1 no modle named trochvision_utils", "none"),
    ],
)
def test_torch_missing_from_the_build_as_typed(kb: KB, text: str, ref: str) -> None:
    assert_first_ref(kb, text, ref)
