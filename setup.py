"""The package's one compiled part: the card finder's inner loops (companion/vision/_kernels.c).

Everything else is declared in pyproject.toml. The extension is optional: where no C
compiler is at hand the install still succeeds and companion.vision.kernels uses its
numpy versions (slower, same results)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("companion.vision._kernels", ["companion/vision/_kernels.c"],
                             extra_compile_args=["-O2"], optional=True)])
