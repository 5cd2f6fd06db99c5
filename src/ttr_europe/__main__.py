"""``python -m ttr_europe``: the same as the ``ttr-europe`` command."""

import sys

from .cli import main

sys.exit(main())
