"""Undefined symbols: an extension built for another torch, the other C++ ABI, a companion, or an old libstdc++.
Silent when the symbol is not the environment's doing: torch's own files disagreeing (a broken install), a symbol torch
stopped exporting, a bare compiled module imported before torch."""

from __future__ import annotations

import re

from envplan.kb import KB

from .cpu import cpu_build_shown
from .facts import (
    BUILT_FOR_TORCH,
    RELATIVE_C,
    TORCHVISION_IMAGE_EXTENSION,
    TorchSeen,
    abi_settings,
    torch_is_cxx11,
    torch_seen,
)
from .fixes import companions_fix, package_of, rebuild_fix, spelled
from .model import Candidate, Demangle, TorchExports, found
from .prose import EXTENSION_NAMED
from .text import Text

__all__ = ["undefined_symbols"]

_UNDEFINED = re.compile(
    # (the path's line may end before the words: "libtorchtext.so: \nundefined symbol: \n_ZN2at...", pasted wrapped)
    r"(?:(?<![^\s:'\"(\[])(?P<path>[^\s:'\"(\[]+?\.(?:so|dylib|pyd)(?:\.\d+)*)\b[^\n]{0,80}?(?:[ \t]*\n\s*)?)?"
    # (typed as people type it: "underfined symbol", "un defined symbol")
    r"(?:un\s?de?r?fine?d\s*symbol|Symbol not found|未定义的?符号)"
    # (and torch's Python binding by its C name, "THPVariableClass": libtorch_python exports it unmangled)
    r"\s*[:\uff1a]?\s*\**(?P<sym>_{1,2}Z[\w$.@]*|aoti_torch_\w+|THP[A-Z]\w*)",
    re.IGNORECASE,
)
# torch's C++ namespaces, and its stable C ABI (aoti_torch_*, which an extension built for a newer torch asks for)
# (torch's Python binding of at::Tensor, pybind11's type_caster<at::Tensor>, lives in libtorch_python too)
# (a member function's qualifiers come after the N: const K, volatile V, and the ref-qualifiers R and O of `&` and `&&`
# methods: torch::Library's def and impl are `&`-qualified, "_ZNR5torch7Library4_defE...")
# (and THC's free functions, torch's CUDA library before 1.11: "_Z13__THCudaCheck9cudaErrorPKci")
_TORCH_NS = re.compile(
    r"^_Z(?:N|K|L|V|R|O|T[VIS])*\d*(?:3c10|2at|5torch|6caffe2|4c10d)|^_Z\d+THP|THPVariable|^aoti_torch_|"
    r"^_Z\d+_{0,2}THC\w|"
    r"^_ZN8pybind116detail11type_casterIN2at6TensorE"
)
# macOS's loader naming the library it looked in: a symbol expected in torch's own library is torch's to export
_EXPECTED_IN_TORCH = re.compile(r"Expected\s+in:[^\n]*?[/\\]torch[/\\]lib[/\\]lib\w+\.dylib", re.IGNORECASE)
# a library of torch's own package failing: a broken or mixed torch install (leftovers of another build), not an
# extension built for another torch
_TORCH_OWN = re.compile(r"(?:site|dist)-packages/torch/(?:lib/|_C[.\w-]*\.(?:so|pyd))")
# the text says the symbol is missing because torch stopped exporting it (a change in torch, not the environment)
_NOT_EXPORTED = re.compile(
    r"(?:not|no longer|isn'?t|aren'?t|wasn'?t)\s+(?:being\s+|be\s+)?exported|symbols?\s+(?:is|are)\s+hidden|"
    r"visibility\s+(?:change|attribute|of)",
    re.IGNORECASE,
)
# a bare compiled module (not a package whose __init__ imports torch) imported at a prompt, in a session where torch
# never shows: torch's libraries are not loaded yet, so the module's torch symbols cannot resolve
_BARE_IMPORT = re.compile(r"^\W{0,3}>>>\s*import\s+(?P<mod>(?!torch\b)[A-Za-z_]\w*)\s*`?$", re.MULTILINE)
_TORCH_LOADED = re.compile(r"(?:import|from)\s+torch\b|/torch/|torch\.__version__", re.IGNORECASE)
# ... or the reporter saying the error goes once torch is imported first ("The error disappear when I add `import
# torch` before `import torch_extension`", lufficc/SSD#125): the module was loaded before torch's libraries were
_TORCH_FIRST = re.compile(
    r"(?:add|put)\w*\s+[`'\"]?import\s+torch[`'\"]?\s+(?:before|first|at\s+the\s+top)", re.IGNORECASE
)
_GONE = re.compile(r"disappear|go(?:es)?\s+away|fix|solv|resolv|work", re.IGNORECASE)
_STD_NS = re.compile(r"^_ZN?K?St")
_NEW_ABI = re.compile(r"__cxx11|B5cxx11|NSt7__cxx")
_ABI_TAGGED = re.compile(r"B5cxx11")  # a name tagged with the cxx11 ABI itself, not only a std::string argument
_OLD_ABI = re.compile(r"(?:E|RK|K|P|R|S\d?_)Ss")
_COMPANION_FILE = re.compile(r"torchvision|torchaudio|torchtext|_torch_sox")
_COMPANION_IMPORT = re.compile(r"import (torchvision|torchaudio|torchtext)|(torchvision|torchaudio|torchtext)/__init__")


# the symbol cut off (a title) or a torch library the extension was linked against that torch no longer ships
_CUT = re.compile(
    r"(?<![^\s:'\"(\[])(?P<path>[^\s:'\"(\[]+?\.so(?:\.\d+)*)\s*:\s*undefined\s*symbol\s*:?\s*$", re.I | re.M
)
# Windows names no symbol: a compiled module whose imports torch no longer exports fails as "procedure not found"
_WIN_PROCEDURE = re.compile(
    r"DLL load failed(?: while importing (?P<mod>\w+))?\s*:\s*(?:The specified procedure could not be found|"
    r"找不到指定的程序|指定されたプロシージャが見つかりません|Die angegebene Prozedur wurde nicht gefunden|"
    # (the Chinese message put back into English by the reporter: "The specified program could not be found",
    # pytorch3d#1792)
    r"The specified program (?:could not|cannot|can not) be found)",
    re.I,
)  # in the languages Windows speaks, not only English
# an undefined symbol told without its name, next to two torch versions ("a torch-2.11 wheel loaded in torch-2.10")
_UNNAMED = re.compile(r"undefined\s+(?:CUDA\s+|C\+\+\s+)?symbols?\b(?!\s*:)", re.IGNORECASE)
_TORCH_RELEASE = re.compile(r"(?<![\w.-])(?:py)?torch[-= _]?v?(?P<v>[12]\.\d{1,2})(?![\d])", re.IGNORECASE)
# the library that fails to load is a companion's, as the text names it (importing it, its package, its pin)
# (ASCII bounds: a Japanese or Chinese sentence runs on from the name, "torchtextのインポート")
_COMPANION_NAMED = re.compile(r"(?<![A-Za-z0-9_-])(torchvision|torchaudio|torchtext)(?![A-Za-z0-9_-])", re.IGNORECASE)
# torch libraries an extension links that the installed torch may lack: libtorch_cuda_cu/_cpp (gone in 2.0), the CUDA
# ones (a CPU build), libtorch_cpu (split out of libtorch in 1.5: the extension was built for a newer torch)
# (the two gone in 2.0 also said "not found": "Installation problems: libtorch_cuda_cu.so not found")
_TORCH_LIB_GONE = re.compile(
    r"(?P<lib>libtorch_cuda_cu|libtorch_cuda_cpp|libtorch_cuda|libc10_cuda|libtorch_cpu)\.so:\s*cannot\s*open|"
    r"(?P<gone>libtorch_cuda_cu|libtorch_cuda_cpp)\.so:?\s+(?:is\s+)?not\s+found"
)
_LIB_HISTORY = {
    "libtorch_cpu": "libtorch_cpu.so arrived with torch 1.5",
    "libtorch_cuda_cu": "libtorch_cuda_cu.so went away in torch 2.0",
    "libtorch_cuda_cpp": "libtorch_cuda_cpp.so went away in torch 2.0",
}
# torch upgraded under a compiled extension, and the extension's import failing (its message cut off the paste)
_UPGRADED = re.compile(
    r"(?:after|since)\s+(?:I\s+)?(?:upgrad|updat)\w*\s+(?:(?:to|my)\s+)?(?:the\s+)?(?:py)?torch|"
    r"(?:upgrad|updat)\w*\s+(?:py)?torch\s+(?:to|from)\s+\d",
    re.IGNORECASE,
)
# a linker's "Undefined symbols for architecture arm64": a build that does not link, not a module that does not load
_LINK_TIME = re.compile(r"undefined\s+symbols?\s+for\s+architecture", re.IGNORECASE)
# NumPy 2 under modules compiled for NumPy 1 fails at import too, whatever was upgraded: outside the catalogue
_NUMPY_2 = re.compile(r"NumPy\s*2|compiled using NumPy 1|numpy\.core\.multiarray failed to import", re.IGNORECASE)
_EXTENSION_IMPORT_FAILED = re.compile(
    r"(?:ImportError|OSError):\s*(?P<path>\S*(?:site|dist)-packages/(?P<pkg>\w+)/\S*\.(?:cpython|so|pyd)\S*)",
    re.IGNORECASE,
)


# a program linking libtorch: the linker's "undefined reference" to a torch function taking a std::string, demangled
# ("c10::Error::Error(c10::SourceLocation, std::string const&)"): the program's string is not libtorch's (the ABI)
_LINK_STRING = re.compile(
    r"undefined\s+reference\s+to\s+[`'\u2018]?(?:c10|at|torch|caffe2)::[^\n`'\u2019]*?"
    r"std::(?:__cxx11::)?(?:basic_string|string)",
    re.IGNORECASE,
)


def undefined_symbols(text: Text, kb: KB, demangle: Demangle, installed: TorchExports | None = None) -> list[Candidate]:
    decided = _link_time_abi(text) or _abi_flag_stated(text) or _freed_after_torch(text)  # verdicts before symbols
    if decided:
        return decided
    torch = torch_seen(text.raw)
    judged = [
        (m.group("sym"), _one(text, m, kb, demangle, torch, installed=installed)) for m in _UNDEFINED.finditer(text.raw)
    ]
    # a symbol quoted twice (a title, then the log) belongs to the module the log shows: a companion's wins
    companions = {sym for sym, c in judged if c is not None and c.ref == "companion-mismatch"}
    out = [c for sym, c in judged if c is not None and (c.ref == "companion-mismatch" or sym not in companions)]
    out = out or _companion_library(text, kb, torch) or _without_symbol(text, kb, torch)
    if text.has(_NOT_EXPORTED) or _before_torch(text):
        return [c for c in out if c.ref not in ("extension-torch-mismatch", "cxx11-abi-mismatch")]
    why = _another_release(text)
    if why:
        return [_as_another_release(c, torch, why) if c.ref == "cxx11-abi-mismatch" else c for c in out]
    return out


# the build said to have compiled against the torch of pip's isolated build environment ("build with
# `--no-build-isolation` to find and use the correct pytorch version"): a C++ ABI difference is then that torch's
# (PyPI's newest, built with the cxx11 ABI since 2.7), and the extension was built for another torch release
_ISOLATED_BUILD_TORCH = re.compile(
    r"no[- ]build[- ]isolation[`'\"]?[^\n.]{0,60}?(?:correct|right|installed|same|matching)\s+(?:py)?torch|"
    r"isolated\s+build\s+env\w*[^\n.]{0,60}?(?:py)?torch",
    re.IGNORECASE,
)
# ... or torch's release said not to be the extension's ("The versions of torch, torchaudio and torchvision do not
# match ipex=2.1.10, which results in the error `...libintel-ext-pt-gpu.so: undefined symbol: ..B5cxx11Ev`",
# ipex-llm#11113): a symbol with the C++11 ABI tag is then one the other torch release has and this one lacks
_RELEASES_DIFFER = re.compile(
    r"(?:versions?\s+of\s+(?:py)?torch|(?<![\w-])(?:py)?torch(?:'s)?\s+versions?)[^\n.]{0,60}?"
    r"(?:do|does|did)\s*(?:not|n['\u2019]t)\s+match",
    re.IGNORECASE,
)


def _another_release(text: Text) -> str:
    """Why the text says the extension was built for another torch release ("" when it does not)."""
    if text.has(_ISOLATED_BUILD_TORCH):
        return (
            "the extension was compiled against the torch pip put in its isolated build environment, another "
            "release than the installed one"
        )
    if text.has(_RELEASES_DIFFER):
        return "the extension was built for another torch release than the installed one, as the text says"
    return ""


def _as_another_release(abi: Candidate, torch: TorchSeen | None, why: str) -> Candidate:
    """An ABI finding read again as what the text says it is: the extension built for another torch release."""
    return Candidate(
        ref="extension-torch-mismatch",
        score=abi.score,
        at=abi.at,
        evidence=abi.evidence,
        cause=f"{why} ({abi.cause})",
        fix=rebuild_fix("", torch),
    )


# ... or to another C++ library's function taking a std::string, in a build against torch ("undefined reference to
# `OpenMM::throwException(char const*, int, std::string const&)'" compiling with the pytorch channel's old-ABI torch
# next to a conda-forge OpenMM): the code compiled with torch's ABI setting, the library with the other one
_LINK_STRING_OTHER = re.compile(
    r"undefined\s+reference\s+to\s+[`'\u2018]?(?!(?:c10|at|torch|caffe2|std)::)[A-Za-z_]\w*::[^\n`'\u2019]*?"
    r"std::(?:__cxx11::)?(?:basic_string|string)",
    re.IGNORECASE,
)
_TORCH_IN_BUILD = re.compile(r"(?<![\w-])(?:py)?torch(?![\w-])|libtorch", re.IGNORECASE)
# ... or, torch not named, the pre-C++11 std::string itself in the reference ("undefined reference to
# `cv::imread(std::string const&, int)'", not std::__cxx11::basic_string): code compiled with
# _GLIBCXX_USE_CXX11_ABI=0 (libtorch's pre-cxx11 download sets it) linking a library built with the C++11 ABI
_LINK_OLD_STRING = re.compile(
    r"undefined\s+reference\s+to\s+[`'\u2018]?(?!std::)[A-Za-z_]\w*::[^\n`'\u2019]*?"
    r"\(\s*(?:[^\n()`'\u2019]*?,\s*)?(?:const\s+)?std::(?:string|basic_string<char)\b",
)


# a package's own check of the C++ ABI it was compiled with ("RuntimeError: This deepmd-kit package was compiled with
# CXX11_ABI_FLAG=0"), or torch's build said to have switched it ("the nightly wheel is build with C++11 ABI on ...
# causing error with torch-xla"): the verdict is in the text, whatever the missing symbol spells
_ABI_FLAG_STATED = re.compile(
    r"(?:built|build|compiled)\s+with\s+(?:the\s+)?(?:CXX11_ABI_FLAG|_GLIBCXX_USE_CXX11_ABI)\s*=\s*[01]|"
    r"(?:built|build|compiled)\s+with\s+(?:the\s+)?C\+\+\s?11\s+ABI\s+(?:on|off|enabled|disabled)",
    re.IGNORECASE,
)
_FAILS = re.compile(r"undefined\s+symbol|error|fail|Traceback", re.IGNORECASE)


def _abi_flag_stated(text: Text) -> list[Candidate]:
    m = text.search(_ABI_FLAG_STATED)
    if m is None or not _FAILS.search(text.raw, m.end()):
        return []
    cause = "the extension and torch were built with different _GLIBCXX_USE_CXX11_ABI settings, as the text says"
    fix = (
        "install the extension build whose C++ ABI matches torch's (python -c 'import torch; "
        "print(torch.compiled_with_cxx11_abi())'; wheels tagged cxx11abiTRUE/FALSE), or rebuild it against the "
        "installed torch: pip install --no-build-isolation --no-deps --no-cache-dir --force-reinstall <package>"
    )
    return [found("cxx11-abi-mismatch", text, m.start(), 0.92, cause=cause, fix=fix)]


# glibc aborting "free(): invalid pointer" as a C++ library is imported after torch ("Crash - free(): invalid pointer
# while importing Open3D after PyTorch"): a std::string made by one's C++ ABI freed by the other's (Open3D's wheels and
# torch's, _GLIBCXX_USE_CXX11_ABI); a segfault alone says less (pytorch#786, scipy after torch), so only glibc's words
_FREE_INVALID = re.compile(r"free\(\)\s*:\s*invalid\s+pointer", re.IGNORECASE)
_IMPORTED_AFTER_TORCH = re.compile(
    r"import\s+torch\s*\n(?:[^\n]*\n){0,3}?[^\n]*import\s+(?!torch)[A-Za-z_]\w*|"
    r"import\w*\s+[\w-]+\s+after\s+(?:py)?torch|after\s+(?:importing\s+)?(?:py)?torch\b[^\n.]{0,30}import",
    re.IGNORECASE,
)


def _freed_after_torch(text: Text) -> list[Candidate]:
    m = text.search(_FREE_INVALID)
    if m is None or not text.has(_IMPORTED_AFTER_TORCH):
        return []
    cause = (
        "importing the library after torch aborts in free(): the two were built with different C++ ABIs "
        "(_GLIBCXX_USE_CXX11_ABI), so a std::string one made is freed with the other's layout"
    )
    fix = (
        "install builds of the library and torch with the same C++ ABI (python -c 'import torch; "
        "print(torch.compiled_with_cxx11_abi())'; both from pip, or both from conda-forge); importing the library "
        "before torch avoids the crash meanwhile"
    )
    return [found("cxx11-abi-mismatch", text, m.start(), 0.55, cause=cause, fix=fix)]


def _link_time_abi(text: Text) -> list[Candidate]:
    m = text.search(_LINK_STRING)
    other = text.search(_LINK_STRING_OTHER) if m is None and text.has(_TORCH_IN_BUILD) else None
    if other is not None:
        cause = (
            "code compiled with torch's C++ ABI setting links a C++ library built with the other one: the "
            "std::string in its functions is not the same type (_GLIBCXX_USE_CXX11_ABI differs)"
        )
        fix = (
            "build the library and torch with the same _GLIBCXX_USE_CXX11_ABI (python -c 'import torch; "
            "print(torch._C._GLIBCXX_USE_CXX11_ABI)'): take both from one channel (conda-forge's torch and its "
            "libraries use the cxx11 ABI), or compile the code with -D_GLIBCXX_USE_CXX11_ABI set to the library's"
        )
        return [found("cxx11-abi-mismatch", text, other.start(), 0.75, cause=cause, fix=fix)]
    old = text.search(_LINK_OLD_STRING) if m is None and other is None else None
    if old is not None:
        cause = (
            "code compiled with the pre-C++11 std::string (_GLIBCXX_USE_CXX11_ABI=0, which libtorch's pre-cxx11 "
            "download sets) links a C++ library built with the C++11 one: its functions taking a std::string are "
            "not found"
        )
        fix = (
            "compile everything with one ABI: the cxx11-abi libtorch download (or torch >= 2.7) with "
            "-D_GLIBCXX_USE_CXX11_ABI=1, or the library rebuilt with -D_GLIBCXX_USE_CXX11_ABI=0"
        )
        return [found("cxx11-abi-mismatch", text, old.start(), 0.6, cause=cause, fix=fix)]
    if m is None:
        return []
    cause = (
        "the program (or extension) links libtorch with the other C++ ABI: its std::string is not the one libtorch "
        "was built with (_GLIBCXX_USE_CXX11_ABI differs)"
    )
    fix = (
        "compile with libtorch's setting: the cxx11-abi libtorch download (or torch >= 2.7) needs "
        "-D_GLIBCXX_USE_CXX11_ABI=1, the pre-cxx11 one 0; with CMake use find_package(Torch) and "
        "${TORCH_CXX_FLAGS}, which set it (python -c 'import torch; print(torch._C._GLIBCXX_USE_CXX11_ABI)')"
    )
    return [found("cxx11-abi-mismatch", text, m.start(), 0.85, cause=cause, fix=fix)]


def _before_torch(text: Text) -> bool:
    """The failing compiled module imported at a prompt, itself, in a session where torch never shows, or said to load
    once torch is imported first."""
    if any(_GONE.search(text.line(m.start())) for m in _TORCH_FIRST.finditer(text.raw)):
        return True
    bare = text.search(_BARE_IMPORT)
    if bare is None or text.has(_TORCH_LOADED):
        return False
    failing = [m.group("path") or "" for m in _UNDEFINED.finditer(text.raw)]
    return any(path.rsplit("/", 1)[-1].split(".", 1)[0] == bare.group("mod") for path in failing)


# a companion's compiled library (torchvision's _C, libtorchaudio) naming any symbol, C ones included
_COMPANION_LIBRARY = re.compile(
    r"(?P<lib>torchvision|torchaudio|torchtext|_torch_sox)[\w./-]*?\.(?:so|pyd)(?:\.\d+)*\b[^\n]{0,40}?"
    r"(?:undefined\s*symbol|Symbol not found)\s*:?\s*(?P<sym>[A-Za-z_][\w$.@]*)",
    re.IGNORECASE,
)


def _companion_library(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    m = text.search(_COMPANION_LIBRARY)
    if m is None or _STD_NS.match(m.group("sym")):
        return []
    lib = _companion_name(m.group("lib"))
    cause = (
        f"{lib}'s compiled library was built against another torch than the installed one: torch does not export "
        f"{m.group('sym')}"
    )
    return [_companion(text, m.start(), 0.85, cause, companions_fix(kb, torch.text if torch else None))]


def _without_symbol(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    """No torch symbol quoted whole: a cut one, Windows' unnamed procedure, an unquoted one, a torch library gone."""
    for read in (
        _cut_symbol,
        _windows_procedure,
        _unquoted_symbol,
        _torch_library_gone,
        _after_upgrade,
        _module_in_title,
    ):
        found = read(text, kb, torch)
        if found:
            return found
    return []


# the message cut in two places: "undefined symbol:" ends a line (a title), and the ImportError naming the module
# ends at its path (the log cut before the symbol)
_SYMBOL_CUT = re.compile(r"undefined\s*symbol\s*:?\s*$", re.IGNORECASE | re.MULTILINE)
_IMPORT_CUT = re.compile(r"ImportError:\s*(?P<path>\S+?\.(?:so|pyd)(?:\.\d+)*)\s*:?\s*$", re.MULTILINE)


def _cut_symbol(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    cut = text.search(_CUT) or (text.search(_IMPORT_CUT) if text.has(_SYMBOL_CUT) else None)
    if cut is None or _TORCH_OWN.search(cut.group("path")) or _COMPANION_FILE.search(cut.group("path")):
        return []
    package = package_of(cut.group("path"), kb)
    if not package:
        return []
    cause = f"{package}'s compiled module does not resolve against the installed torch (the symbol is cut off)"
    return [_mismatch(text, cut.start(), 0.7, cause, rebuild_fix(package, torch))]


# a package's own `_C` ("from pytorch3d import _C"): torch's is imported as torch._C
_PACKAGE_C = re.compile(
    r"from\s+(?P<pkg>(?!torch\b)[A-Za-z_]\w*)\s+import\s+_C\b|(?<!\w)(?P<pkg2>(?!torch\b)[A-Za-z_]\w*)\._C\b|"
    + RELATIVE_C.pattern  # (or its relative import, under its frame)
)


# the Windows message cut after the module ("DLL load failed while importing flash_attn_2_cuda" ending the line), or
# retold so in a title ("DLL cannot be loaded while importing exllamav2_ext")
_WIN_CUT = re.compile(
    r"(?:DLL\s+load\s+failed|DLL\s+(?:cannot|can'?t|could\s+not|couldn'?t)\s+be\s+loaded|DLL\s+fails?\s+to\s+load)\s+"
    r"(?:while|when)\s+importing\s+(?P<mod>\w+)\s*:?\s*$",
    re.IGNORECASE | re.MULTILINE,
)


# Windows' code for it, from a program loading a native library ("LibTorchSharp.dll fails to load (0x8007007F)",
# ERROR_PROC_NOT_FOUND): the library imports functions the libtorch next to it does not export
_WIN_PROC_CODE = re.compile(
    r"(?<![\w.-])(?P<dll>[A-Za-z][\w.-]*?)\.dll\b[^\n]{0,80}?(?:0x8007007F|ERROR_PROC_NOT_FOUND)", re.IGNORECASE
)
_TORCHS_OWN_DLL = re.compile(r"(?:c10|torch|torch_cpu|torch_cuda|torch_python|fbgemm|asmjit|uv)(?:_\w+)?", re.I)


def _windows_procedure(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    code = text.search(_WIN_PROC_CODE)
    if code is not None and not _TORCHS_OWN_DLL.fullmatch(code.group("dll")):
        dll = code.group("dll")
        cause = f"{dll}.dll imports functions the libtorch it loads with does not export: it was built for another one"
        return [_mismatch(text, code.start(), 0.65, cause, rebuild_fix(dll, torch))]
    cut = text.search(_WIN_CUT)
    package = package_of(f"{cut.group('mod')}.pyd", kb) if cut else ""
    if cut is not None and package and not _COMPANION_FILE.search(cut.group("mod")):
        cause = f"{package}'s compiled module does not load against the installed torch (Windows; the reason is cut)"
        return [_mismatch(text, cut.start(), 0.6, cause, rebuild_fix(package, torch))]
    win = text.search(_WIN_PROCEDURE)
    mod = (win.group("mod") or _imported_above(text, win.start())) if win else ""
    owner = text.search(_PACKAGE_C) if mod == "_C" else None
    if owner is not None:
        mod = owner.group("pkg") or owner.group("pkg2") or owner.group("pkg3")
    package = package_of(f"{mod}.pyd", kb) if mod and mod != "_C" else ""
    package = package or (mod if owner is not None else "")  # a package the text shows importing its own _C
    if win is None or not mod or _COMPANION_FILE.search(mod):
        return []
    if mod == "_C" and not package:
        # a bare _C under a traceback through a compiled package's files (site-packages\pytorch3d\io\__init__.py,
        # pytorch3d#1792): that package's own module
        package = _extension_traced(text, kb)
    if not package:
        return _unknown_module_procedure(text, win, mod, torch)
    cause = f"{package}'s compiled module imports torch functions the installed torch does not export (Windows)"
    return [_mismatch(text, win.start(), 0.75, cause, rebuild_fix(package, torch))]


# the traceback's last code line ("    from detectron2 import _C"): Python before 3.8 does not name the module in its
# "DLL load failed" message, the line above it does
_IMPORT_LINE = re.compile(
    r"^[ \t>]*(?:from\s+(?P<pkg>[\w.]+)\s+import\s+(?P<name>\w+)|import\s+(?P<mod>[\w.]+))[^\n]*\n\s*\Z", re.MULTILINE
)


def _imported_above(text: Text, at: int) -> str:
    """The module the code line just above the error imports: its last name (a package's own _C as "_C")."""
    line = text.line_start(at)  # the error's own line
    m = _IMPORT_LINE.search(text.raw[max(0, line - 300) : line])
    if m is None or (m.group("pkg") or m.group("mod") or "").split(".")[0] == "torch":
        return ""
    return m.group("name") if m.group("pkg") else m.group("mod").rsplit(".", 1)[-1]


# compiled modules of stacks outside torch's that fail the same way on Windows (OpenCV, NumPy, ONNX Runtime, Python's
# own, pywin32, Pillow, TensorFlow, Paddle): their failure says nothing of torch
_NOT_TORCH_MODULE = re.compile(
    r"cv2|_multiarray_umath|_umath\w*|onnxruntime\w*|_pywrap\w*|core_(?:avx|noavx)|libpaddle|_ctypes|_ssl|_socket|"
    r"_sqlite3|_hashlib|_lzma|_bz2|_decimal|_elementtree|pyexpat|select|unicodedata|win32\w*|pywintypes|_imaging\w*|"
    r"_cffi_backend|_rust|_bcrypt|_openssl|lib\w*gl\w*|_psutil\w*|_yaml|_cython\w*",
    re.IGNORECASE,
)
# torch's own _C failing (its __init__ importing it): a broken torch install, not an extension
_TORCH_OWN_C = re.compile(r"torch[/\\]__init__\.py|from\s+torch\._C\s+import|torch\._C\b", re.IGNORECASE)


def _unknown_module_procedure(text: Text, win: re.Match[str], mod: str, torch: TorchSeen | None) -> list[Candidate]:
    """A module envplan does not know failing as "procedure not found": an extension built for another torch, unless
    it is another stack's module or torch's own _C (its import shown). A bare _C is a package's own compiled module:
    torch's own _C failing to load says "module could not be found" (a DLL it needs), and the corpus's bare _C with
    "procedure" are extensions' (pytorch3d#1872, shap-e#16)."""
    if _NOT_TORCH_MODULE.fullmatch(mod) or text.has(_TORCH_OWN_C):
        return []
    bare = "a package's compiled module _C (whose, the text does not say)"
    whose = f"the compiled module {mod}" if mod != "_C" else bare
    cause = (
        f"{whose} imports functions the libraries it loads with do not export (Windows): typically an extension built "
        "for another torch than the installed one"
    )
    return [_mismatch(text, win.start(), 0.55, cause, rebuild_fix("", torch))]


def _unquoted_symbol(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    """ "undefined symbol" without the symbol: a companion's when one is named, else two torch releases named."""
    unnamed = text.search(_UNNAMED)
    if unnamed is None or text.has(_LINK_TIME):
        return []
    known = _known_extension_on_line(text, kb, unnamed.start())
    if known and BUILT_FOR_TORCH.search(text.line(unnamed.start())):
        # the extension said built for a torch release, on the line of the symbols ("flash-attn ... is built for
        # PyTorch 2.6.0. This mismatched build causes undefined symbol errors"): its library, whatever else is named
        cause = f"{known} was built for another torch than the installed one, and its library fails to resolve"
        return [_mismatch(text, unnamed.start(), 0.75, cause, rebuild_fix(known, torch))]
    listed = _extension_listed(text, kb)
    traced = _extension_traced(text, kb)
    named = _companion_failing(text, listings=not listed, traced_only=bool(traced))
    if named and not text.has(_TORCH_OWN):
        lib = named.group(1).lower()
        cause = f"{lib}'s compiled library fails to resolve against the installed torch (the symbol is not quoted)"
        return [_companion(text, unnamed.start(), 0.7, cause, companions_fix(kb, torch.text if torch else None))]
    known = known or listed or traced
    if known:
        cause = f"{known}'s compiled library fails to resolve against the installed torch (the symbol is not quoted)"
        return [_mismatch(text, unnamed.start(), 0.6, cause, rebuild_fix(known, torch))]
    releases = sorted({m.group("v") for m in _TORCH_RELEASE.finditer(text.raw)})
    if len(releases) < 2 or _COMPANION_FILE.search(text.raw):
        return []
    cause = f"a compiled extension was built against another torch than the one it loads with ({' vs '.join(releases)})"
    return [_mismatch(text, unnamed.start(), 0.7, cause, rebuild_fix("", torch))]


def _known_extension_on_line(text: Text, kb: KB, at: int) -> str:
    """A compiled torch extension the KB knows (its extensions, the builds that import torch) named on the line of
    "undefined symbol" ("Pytorch 2.5.0 + Megablocks undefined symbol error"): the library that fails is its."""
    line = text.line(at)
    for name in _compiled_names(kb):
        loose = "[-_ ]?".join(re.escape(part) for part in re.split(r"[-_]", name))  # ("Megablocks", "flash attn")
        if re.search(rf"(?<![A-Za-z0-9_-]){loose}(?![A-Za-z0-9_-])", line, re.IGNORECASE):
            return name
    return ""


def _compiled_names(kb: KB) -> tuple[str, ...]:
    """The compiled torch extensions the KB knows by name: its extensions, then the builds that import torch."""
    return (*(e.name for e in kb.extensions), *kb.build_imports_torch)


# the ELF loader starting a program ("target/release/app: error while loading shared libraries: libtorch_cuda.so"):
# a binary linked to libtorch itself, whose library path lacks libtorch's folder, not an extension inside Python
_PROGRAM_LOADING = re.compile(r"error\s+while\s+loading\s+shared\s+libraries\s*:\s*libtorch", re.IGNORECASE)


# DGL's TensorDispatcher probing torch's libraries at import ("TensorDispatcher: dlopen failed: libtorch_cuda.so"): a
# warning DGL continues past (the corpus settles the tensoradapter library's own "cannot open" both ways: dgl#3377
# outside the catalogue, EquiBind#8 another torch)
_DGL_DISPATCHER = re.compile(r"TensorDispatcher\s*:\s*dlopen\s+failed\s*:\s*libtorch", re.IGNORECASE)


def _torch_library_gone(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    gone = text.search(_TORCH_LIB_GONE)
    if gone is None or text.has(_PROGRAM_LOADING) or text.has(_DGL_DISPATCHER):
        return []
    lib = gone.group("lib") or gone.group("gone")
    if lib in ("libtorch_cuda", "libc10_cuda") and cpu_build_shown(text):
        return []  # a CUDA build of the extension under the CPU torch the text shows: the CPU rule's
    companion = _companion_failing(text)
    # (torchvision's own warning names the library failing: "Failed to load image Python extension: libtorch_cuda_cu.so:
    # cannot open shared object file", pytorch-cpu-feedstock#147)
    name = companion.group(1).lower() if companion else "torchvision" if text.has(TORCHVISION_IMAGE_EXTENSION) else ""
    if name:
        cause = f"{name} was linked against {lib}.so, which the installed torch does not ship"
        return [_companion(text, gone.start(), 0.75, cause, companions_fix(kb, torch.text if torch else None))]
    cause = f"an extension was linked against {lib}.so, which the installed torch does not ship"
    history = _LIB_HISTORY.get(lib, "a CPU build of torch has no CUDA libraries")
    return [_mismatch(text, gone.start(), 0.7, cause, rebuild_fix("", torch) + f" ({history})")]


# an install command names what was installed, not what fails ("conda install pytorch==2.0.0 torchvision==0.15.0")
_INSTALL_COMMAND = re.compile(r"(?:pip3?|conda|mamba|micromamba|uv(?:\s+pip)?)\s+(?:install|add)\b", re.IGNORECASE)


def _companion_failing(text: Text, *, listings: bool = True, traced_only: bool = False) -> re.Match[str] | None:
    """A companion the text names outside an install command (and, unless listings count, outside a package
    listing's line; when a compiled package is in the traceback, only in a traceback's path): the one whose library
    may be failing."""
    for line in text.raw.splitlines():
        named = _COMPANION_NAMED.search(line)
        if named is None or _INSTALL_COMMAND.search(line) or (not listings and _LISTING_LINE.match(line)):
            continue
        if not traced_only or _PACKAGE_PATH.search(line):
            return named
    return None


# a traceback's frame in an installed package (".../dist-packages/mmcv/ops/__init__.py")
_PACKAGE_PATH = re.compile(r"(?:site|dist)-packages[/\\](?P<pkg>[\w.-]+)[/\\]", re.IGNORECASE)


def _extension_traced(text: Text, kb: KB) -> str:
    """A compiled package whose installed files the traceback goes through: one the KB knows (torch-sparse) or one
    people name as a torch extension (mmcv, detectron2, ...). With the symbol unquoted, its library is the likely one
    that fails."""
    known = set(_compiled_names(kb))  # (the KB's names are lower case, with hyphens)
    for m in _PACKAGE_PATH.finditer(text.raw):
        pkg = m.group("pkg")
        if pkg.replace("_", "-").lower() in known or EXTENSION_NAMED.fullmatch(pkg):
            return pkg
    return ""


# a package listing's line (pip list, pip freeze, conda list, collect_env's "[pip3] name==version"): the package is
# installed, not failing
_LISTING_LINE = re.compile(
    r"\s*(?:\[(?:pip3?|conda)\]\s+)?[A-Za-z][\w.-]*(?:\s{2,}|\t|==)v?\d[\w.+!-]*(?:\s+\S+){0,3}\s*$"
)


def _extension_listed(text: Text, kb: KB) -> str:
    """A compiled extension the KB knows, installed per the text's package listing (pip list, conda list): the likely
    owner of a symbol the text does not quote."""
    for name in _compiled_names(kb):
        if re.search(rf"(?im)^\s*(?:\[(?:pip3?|conda)\]\s+)?{spelled(name)}(?:\s{{2,}}|==)v?\d", text.raw):
            return name
    return ""


def _companion_name(found: str) -> str:
    """torchvision, torchaudio (its sox library too) or torchtext, from the name or path the text shows."""
    lowered = found.lower()
    if "audio" in lowered or "sox" in lowered:
        return "torchaudio"
    return "torchtext" if "text" in lowered else "torchvision"


def _companion(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("companion-mismatch", text, at, score, cause=cause, fix=fix)


def _after_upgrade(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    upgraded = text.search(_UPGRADED)
    failed = text.search(_EXTENSION_IMPORT_FAILED)
    if upgraded is None or failed is None or failed.group("pkg").lower() == "torch" or text.has(_NUMPY_2):
        return []
    package = package_of(failed.group("path"), kb)
    cause = f"torch was upgraded under {package or 'a compiled extension'}, whose compiled module no longer loads"
    return [_mismatch(text, failed.start(), 0.65, cause, rebuild_fix(package, torch))]


# a known extension's module named with "undefined symbol" and nothing else, a title ("flash_attn_2 undefined symbol")
_MODULE_TITLE = re.compile(
    # (on its own line: a class with \s in it would run on through every line below, slowly on a long log)
    r"^[ \t#>*`\"'\[\]\w:]{0,120}?(?P<mod>[A-Za-z_][A-Za-z0-9_]{2,80})\s*[:-]?\s*undefined\s+symbols?[\s.!`\"']*$",
    re.IGNORECASE | re.MULTILINE,
)


def _module_in_title(text: Text, kb: KB, torch: TorchSeen | None) -> list[Candidate]:
    m = text.search(_MODULE_TITLE)
    if m is None:
        return []
    mod = m.group("mod")
    package = package_of(f"{mod}.so", kb) or next(
        (e.name for e in kb.extensions if e.import_name and mod.startswith(e.import_name)), ""
    )
    if not package:
        return []
    cause = f"{package}'s compiled module ({mod}) does not load against the installed torch (the symbol is not quoted)"
    return [_mismatch(text, m.start("mod"), 0.65, cause, rebuild_fix(package, torch))]


def _mismatch(text: Text, at: int, score: float, cause: str, fix: str) -> Candidate:
    return found("extension-torch-mismatch", text, at, score, cause=cause, fix=fix)


def _seen(installed: TorchExports | None) -> TorchSeen | None:
    """The installed torch as the text would state it, when the text states none."""
    return torch_seen(f"torch=={installed.version}") if installed is not None else None


def _one(
    text: Text, m: re.Match[str], kb: KB, demangle: Demangle, torch: TorchSeen | None, *, installed: TorchExports | None
) -> Candidate | None:
    path, sym = m.group("path") or "", m.group("sym")
    sym = sym[1:] if sym.startswith("__Z") else sym  # macOS prefixes one more underscore
    before = text.raw[max(0, m.start() - 400) : m.start()]
    evidence = text.line(m.start("sym"))
    companion = _COMPANION_FILE.search(path) or (not path and _COMPANION_IMPORT.search(before))
    if companion and (_TORCH_NS.search(sym) or not _STD_NS.match(sym)):
        lib = _companion_name(companion.group(0))
        cause = f"{lib}'s compiled ops were built against another torch than the installed one ({demangle(sym)})"
        fix = companions_fix(kb, torch.text if torch else None)
        return Candidate(ref="companion-mismatch", score=0.9, at=m.start(), evidence=evidence, cause=cause, fix=fix)
    if _STD_NS.match(sym):
        return _libstdcxx(m, evidence, demangle(sym))
    expected = text.raw[m.end() : m.end() + 400]
    if _TORCH_OWN.search(path) or (sym.startswith("THP") and not _in_a_package(path)):
        return None  # torch's own library, or a bare module imported before torch: not an extension mismatch
    if not (_TORCH_NS.search(sym) or _EXPECTED_IN_TORCH.search(expected)):
        # the extension's own code or another library: not an extension mismatch, an ABI one at most
        return _other_library_old_abi(m, evidence, sym, demangle)
    ctx, demangled = _Ctx(kb, torch, package_of(path, kb), text.raw), demangle(sym)
    asked = _asked(m, evidence, sym, demangled, ctx, installed=installed) if installed is not None else None
    return asked or _torch_symbol(m, evidence, sym, demangled, ctx)


def _in_a_package(path: str) -> bool:
    """The compiled module lives in a package's folder ("site-packages/detectron2/_C...so"), whose __init__ imports
    torch before it: torch's Python binding (THPVariableClass) is loaded then, so lacking it means another torch. A
    module on its own (in site-packages or an egg's root, "./smtl_cuda.so") is imported bare, before torch: torch's
    tutorial answer, import torch first."""
    parts = path.replace("\\", "/").rsplit("/", 2)
    if len(parts) < 2 or parts[-2] in ("", "."):
        return False
    return not (parts[-2].endswith(".egg") or parts[-2] in ("site-packages", "dist-packages"))


def _other_library_old_abi(m: re.Match[str], evidence: str, sym: str, demangle: Demangle) -> Candidate | None:
    """A library outside torch asked for a function taking the pre-cxx11 std::string ("...GetOperationByNameERKSs",
    Ascend's AsdOps under torch_npu; TransformerEngine's getenv): the caller and the library were built with different
    _GLIBCXX_USE_CXX11_ABI settings (the corpus settles both such reports so)."""
    if not _OLD_ABI.search(sym):
        return None
    cause = (
        f"a library asks for {demangle(sym)} with the pre-C++11 std::string, and the library that should export it "
        "was built with the other _GLIBCXX_USE_CXX11_ABI setting"
    )
    fix = (
        "use the build of that library made for torch's ABI (python -c 'import torch; print(torch._C."
        "_GLIBCXX_USE_CXX11_ABI)'; vendors ship both, e.g. Ascend's abi_0/abi_1 folders), or rebuild the caller with "
        "-D_GLIBCXX_USE_CXX11_ABI set to match"
    )
    return Candidate(ref="cxx11-abi-mismatch", score=0.6, at=m.start(), evidence=evidence, cause=cause, fix=fix)


# the text itself says the C++ ABI is the trouble ("ABI incompatibility", "Conda build with pre-cxx11 ABI"); a
# compiler's -D_GLIBCXX_USE_CXX11_ABI=0 says nothing
_ABI_SAID = re.compile(
    r"pre-?cxx11|(?:c\+\+|cxx)\s*11\s*abi|(?<![\w-])abi\s+(?:incompatib|mismatch|conflict|problem|issue)|"
    r"incompatible\s+abi|(?<!-D)(?<![\w.])_GLIBCXX_USE_CXX11_ABI(?![\w])(?!\W{0,3}[01](?![\w.]))",
    re.IGNORECASE,
)


class _Ctx:
    __slots__ = ("abi", "kb", "mixed", "package", "said", "torch")

    def __init__(self, kb: KB, torch: TorchSeen | None, package: str, text: str) -> None:
        self.kb, self.torch, self.package = kb, torch, package
        self.abi = torch_is_cxx11(kb, torch, text)
        self.mixed = len(abi_settings(text)) == 2  # the text itself names both ABI settings
        self.said = _ABI_SAID.search(text) is not None


def _torch_symbol(m: re.Match[str], evidence: str, sym: str, demangled: str, ctx: _Ctx) -> Candidate:
    torch_abi = ctx.abi
    name = ctx.package or "the extension"
    if _NEW_ABI.search(sym) and (torch_abi is False or (torch_abi is None and _ABI_TAGGED.search(sym))):
        seen = f" (torch {ctx.torch.text} uses the old ABI)" if ctx.torch else ""
        return _abi(m, evidence, demangled, f"{name} was built with _GLIBCXX_USE_CXX11_ABI=1, torch without{seen}", ctx)
    if _OLD_ABI.search(sym) and (torch_abi is True or ctx.mixed):
        seen = f" (torch {ctx.torch.text} uses the cxx11 ABI)" if ctx.torch and torch_abi else ""
        return _abi(m, evidence, demangled, f"{name} was built with _GLIBCXX_USE_CXX11_ABI=0, torch with it{seen}", ctx)
    if ctx.said and (_NEW_ABI.search(sym) or _OLD_ABI.search(sym)):
        said = f"{name} and torch were built with different C++ ABIs, as the text says"
        return _abi(m, evidence, demangled, said, ctx)
    installed = f" {ctx.torch.text}" if ctx.torch else " one"
    return _skew(
        m,
        evidence,
        f"{name} was built against another torch than the installed{installed}: it lacks {demangled}",
        ctx,
        0.9,
    )


def _skew(m: re.Match[str], evidence: str, cause: str, ctx: _Ctx, score: float) -> Candidate:
    """The extension built against another torch release than the one it loads into."""
    return Candidate(
        ref="extension-torch-mismatch",
        score=score,
        at=m.start(),
        evidence=evidence,
        cause=cause,
        fix=rebuild_fix(ctx.package, ctx.torch),
    )


def _asked(
    m: re.Match[str], evidence: str, sym: str, demangled: str, ctx: _Ctx, *, installed: TorchExports
) -> Candidate | None:
    """The installed torch's answer (envplan explain --python): exported with the other C++ ABI only, or under
    neither; None when it exports the symbol itself (the failing process loaded another torch) or cannot tell."""
    verdict = installed.verdict(sym)
    if verdict not in ("other-abi", "absent"):
        return None
    ctx.torch = ctx.torch or _seen(installed)
    name = ctx.package or "the extension"
    where = f"torch {installed.version} (the environment given with --python)"
    if verdict == "other-abi":
        ctx.abi = not _NEW_ABI.search(sym)  # the symbol's ABI is the extension's; torch's is the other
        setting = "1, torch with 0" if _NEW_ABI.search(sym) else "0, torch with 1"
        cause = f"{name} was built with _GLIBCXX_USE_CXX11_ABI={setting}: {where} exports it only with its own ABI"
        return _abi(m, evidence, demangled, cause, ctx, score=0.95)
    return _skew(
        m,
        evidence,
        f"{name} was built against another torch: {where} does not export {demangled} under either C++ ABI",
        ctx,
        0.95,
    )


def _abi(m: re.Match[str], evidence: str, demangled: str, cause: str, ctx: _Ctx, *, score: float = 0.88) -> Candidate:
    flag = "TRUE" if ctx.abi else "FALSE"
    known = ctx.abi is not None
    wheel = (
        f"install the {ctx.package or 'extension'} wheel tagged cxx11abi{flag} for this torch"
        if known
        else "install the wheel whose cxx11abi tag matches torch._C._GLIBCXX_USE_CXX11_ABI "
        "(TRUE for torch >= 2.7 and for 2.6+cu126, FALSE for older PyPI builds)"
    )
    pkg = ctx.package or "<the extension's pip package>"
    return Candidate(
        ref="cxx11-abi-mismatch",
        score=score,
        at=m.start(),
        evidence=evidence,
        cause=f"{cause}: the symbol is {demangled}",
        fix=f"{wheel}, or build it against this torch: pip install --no-build-isolation --no-deps --no-cache-dir "
        f"--force-reinstall {pkg}",
    )


def _libstdcxx(m: re.Match[str], evidence: str, demangled: str) -> Candidate:
    return Candidate(
        ref="glibc-too-old",
        score=0.65,
        at=m.start(),
        evidence=evidence,
        cause=f"the libstdc++ loaded is older than the one the binary was built with (it lacks {demangled})",
        fix="load a newer libstdc++ (conda install -c conda-forge libstdcxx-ng, or a newer GCC runtime first on "
        "LD_LIBRARY_PATH), or build the extension with the system compiler",
    )
