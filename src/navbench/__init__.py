"""navbench: build, run and score embodied-navigation benchmarks."""

__version__ = "0.3.0"
