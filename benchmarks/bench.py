"""Run the throughput benchmark: ``python benchmarks/bench.py [--quick] [--json FILE]``."""

from __future__ import annotations

import sys

from ttr_europe.bench import main

if __name__ == "__main__":
    sys.exit(main())
