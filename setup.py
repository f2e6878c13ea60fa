"""Build the compiled kernel, app.core._kernel, from app/core/kernel/*.cpp (C++17, pybind11).

Everything else about the package is in pyproject.toml; setuptools reads the extension from
here because pyproject.toml cannot name pybind11's build helpers.
"""

import os
from glob import glob

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

ParallelCompile("TENPAI_BUILD_JOBS", default=2).install()  # the kernel's parts compile side by side

# -ffp-contract=off: no fused multiply-adds, so the search's sums round the same on every machine.
compile_args = ["-O2", "-ffp-contract=off"]
link_args: list[str] = []
if os.environ.get("TENPAI_KERNEL_SANITIZE") == "1":
    # scripts/kernel_sanitize.sh: AddressSanitizer and UBSan, any undefined behaviour fatal.
    sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined", "-fno-omit-frame-pointer", "-g"]
    compile_args = ["-O1", "-ffp-contract=off", *sanitize]
    link_args = sanitize

setup(
    ext_modules=[
        Pybind11Extension(
            "app.core._kernel",
            sorted(glob("app/core/kernel/*.cpp")),
            include_dirs=["app/core/kernel"],
            depends=sorted(glob("app/core/kernel/*.hpp")),
            cxx_std=17,
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ],
    cmdclass={"build_ext": build_ext},
)
