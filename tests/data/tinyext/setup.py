"""envplan-tinyext: one tiny real C++ extension, built by a plan's build.sh in the end-to-end test."""

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

setup(
    name="envplan-tinyext",
    version="0.1",
    ext_modules=[CppExtension("envplan_tinyext", ["good.cpp"], extra_compile_args=["-O0", "-g0"])],
    cmdclass={"build_ext": BuildExtension},
)
