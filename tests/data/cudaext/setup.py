"""A one-kernel CUDAExtension (tests only): built with the machine's nvcc against the installed CUDA torch.
TORCH_CUDA_ARCH_LIST decides the architectures (one is enough: no GPU runs it here)."""

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="addone-cuda",
    version="0.1",
    ext_modules=[CUDAExtension("addone_cuda", ["addone.cu"], extra_compile_args={"cxx": ["-g0"], "nvcc": ["-O2"]})],
    cmdclass={"build_ext": BuildExtension},
)
