"""Build the compiled kernel, app.core._kernel, from app/core/kernel/*.cpp (C++17, pybind11).

Everything else about the package is in pyproject.toml; setuptools reads the extension from
here because pyproject.toml cannot name pybind11's build helpers.
"""

from glob import glob

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

ParallelCompile("TENPAI_BUILD_JOBS", default=2).install()  # the kernel's parts compile side by side

setup(
    ext_modules=[
        Pybind11Extension(
            "app.core._kernel",
            sorted(glob("app/core/kernel/*.cpp")),
            include_dirs=["app/core/kernel"],
            depends=sorted(glob("app/core/kernel/*.hpp")),
            cxx_std=17,
            extra_compile_args=["-O2"],
        )
    ],
    cmdclass={"build_ext": build_ext},
)
