"""Optional dependencies (the extras of pyproject.toml), imported lazily.

:func:`need` imports a module or raises an ImportError that says which extra
installs it; shared by the modules that use an extra (``serve``,
``explorer``).
"""

from __future__ import annotations

import importlib
from typing import Any


def need(module: str, user: str = "relfterrain.serve", extra: str = "serve") -> Any:
    """The module ``module``, or ImportError naming ``user`` and the extra."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{user} needs {module.split('.')[0]}: "
                          f'pip install "relfterrain[{extra}]"') from exc
