"""Builds three small extensions against the installed torch: one good, one with the other C++11 ABI,
one that needs a symbol this torch does not define (as if built against another torch)."""

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

FAST = ["-O0", "-g0"]

setup(
    name="envplan-test-extensions",
    version="0.1",
    ext_modules=[
        CppExtension("envplan_good", ["good.cpp"], extra_compile_args=FAST),
        CppExtension("envplan_oldabi", ["good.cpp"], extra_compile_args=[*FAST, "-D_GLIBCXX_USE_CXX11_ABI=0"]),
        CppExtension("envplan_newapi", ["newapi.cpp"], extra_compile_args=FAST),
    ],
    cmdclass={"build_ext": BuildExtension},
)
