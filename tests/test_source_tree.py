"""Importing a source tree whose C extension is not built says what to do."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import relfterrain


def test_unbuilt_source_tree_raises_a_helpful_importerror(tmp_path: Path) -> None:
    # A copy of the package's Python files only, as a checkout before any build.
    pkg = tmp_path / "relfterrain"
    pkg.mkdir()
    for f in Path(relfterrain.__file__).parent.glob("*.py"):
        shutil.copy(f, pkg / f.name)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run([sys.executable, "-c", "import relfterrain"], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: relfterrain's C extension (relfterrain._core) is not built")
    assert "pip install ." in last and "build_ext --inplace" in last
    assert "circular import" not in last.split("(The import failed with")[0]


def test_public_names_are_unique() -> None:
    assert len(relfterrain.__all__) == len(set(relfterrain.__all__))
