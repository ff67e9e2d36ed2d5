"""The installed torch's exports, asked about one symbol a log says is missing (`envplan explain --python`).

A log cannot tell a missing `std::string` symbol of the other C++ ABI from one this torch release never had (the
threads settle identical symbols both ways); the installed torch can. Everything in a mangled name before its first
ABI-sensitive token (`Ss`, `NSt7__cxx11...`, `B5cxx11`) is spelled the same under both ABIs, so the exports sharing
that prefix are the only candidates: those are demangled (one c++filt run) and compared with the symbol, the two
spellings of std::string made one.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from envplan.live.abicheck import probe_environment, torch_libs
from envplan.live.demangle import demangle

__all__ = ["InstalledTorch", "installed_torch", "plain_name"]

# where the two ABIs' manglings start to differ: std::string (old "Ss", new "NSt7__cxx11..."), the new ABI's tag on
# a function returning std::string ("B5cxx11"), std::basic_string and the string streams of the old ABI
_ABI_TOKEN = re.compile(r"N?St7__cxx11|B5cxx11|Ss|Sb|N?St\d{2}basic_[io]?stringstream")
_NEW_STRING = re.compile(
    r"std::(?:__cxx11::)?basic_string<char, std::char_traits<char>, std::allocator<char> >|std::__cxx11::string"
)
_MAX_CANDIDATES = 20_000  # more than this shares the prefix only when the symbol is cut (no verdict then)


def plain_name(demangled: str) -> str:
    """A demangled name with the C++ ABI's marks removed: both spellings of std::string one, no [abi:cxx11] tags."""
    plain = _NEW_STRING.sub("std::string", demangled).replace("[abi:cxx11]", "")
    return plain.replace("std::__cxx11::", "std::")


@dataclass(frozen=True, slots=True)
class InstalledTorch:
    python: str
    version: str
    exports: tuple[str, ...]  # sorted: every symbol torch's libraries, libstdc++ and libpython define

    def verdict(self, symbol: str) -> str:
        if self._defines(symbol):
            return "exported"
        token = _ABI_TOKEN.search(symbol)
        if token is None:
            return "absent"  # nothing in its name depends on the ABI
        prefix = symbol[: token.start()]
        start = bisect_left(self.exports, prefix)
        candidates = []
        for name in self.exports[start:]:
            if not name.startswith(prefix):
                break
            candidates.append(name)
            if len(candidates) > _MAX_CANDIDATES:
                return "unknown"
        if not candidates:
            return "absent"
        wanted, *others = demangle([symbol, *candidates])
        if wanted == symbol:
            return "unknown"  # c++filt could not read it
        plain = plain_name(wanted)
        return "other-abi" if any(plain_name(other) == plain for other in others) else "absent"

    def _defines(self, symbol: str) -> bool:
        at = bisect_left(self.exports, symbol)
        return at < len(self.exports) and self.exports[at] == symbol


def installed_torch(python: str) -> InstalledTorch:
    """The torch of `python`'s environment, read from its files (torch is not imported); EnvplanError (exit 2)
    when that Python cannot be run or has no torch."""
    data = probe_environment(python, files_only=True)
    libpython = str(data.get("libpython") or "")
    libs = torch_libs(str(data["torch_dir"]), str(data["torch_version"]), [libpython] if libpython else [])
    executable = str(data.get("python") or python)
    return InstalledTorch(python=executable, version=libs.version, exports=tuple(sorted(libs.defined)))
