"""The progress bar of long calls (``progress=True``): tqdm, imported lazily."""

from __future__ import annotations

from typing import Any


def tqdm_class() -> Any:
    """``tqdm.auto.tqdm``, or an ImportError naming the extra that installs it."""
    try:
        from tqdm.auto import tqdm
    except ImportError:
        raise ImportError(
            "progress=True needs tqdm: pip install tqdm (or pip install 'relfterrain[progress]')"
        ) from None
    return tqdm
