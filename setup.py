"""The package's one compiled part: the card finder's and the reader's inner loops
(companion/vision/_kernels.c).

Everything else is declared in pyproject.toml. The extension is optional: where no C
compiler is at hand the install still succeeds and companion.vision.kernels and
read_kernels use their numpy versions (slower, same results). Floating-point contraction
is off so that an ARM compiler (the Pi's) does not fuse multiply-adds the numpy versions
do not."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("companion.vision._kernels", ["companion/vision/_kernels.c"],
                             extra_compile_args=["-O2", "-ffp-contract=off"], optional=True)])
