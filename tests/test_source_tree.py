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


def test_load_is_the_first_call_in_a_fresh_process(tmp_path: Path) -> None:
    # import relfterrain loads its modules on first use: rt.load must not need
    # relfterrain.terrain imported before it (found by fuzz_load in CI)
    path = tmp_path / "roads.json"
    path.write_text('[{"path": [{"x": 23400, "y": 5320}, {"x": 23440, "y": 5320}]}]')
    root = os.path.dirname(os.path.dirname(os.path.abspath(relfterrain.__file__)))
    code = ("import sys, relfterrain as rt\n"
            "assert 'relfterrain.terrain' not in sys.modules\n"
            f"print(len(rt.load({str(path)!r}).roads))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=root))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["1"]
