"""The README's Python example runs as written."""

import contextlib
import io
import re

from conftest import EXAMPLES

README = EXAMPLES.parent / "README.md"


def test_readme_example_runs(monkeypatch):
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(README.parent)  # the example's paths are the repo's
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(code, "README.md", "exec"), {})
    lines = output.getvalue().splitlines()
    assert lines[0].startswith("gemm_abt_bf16(!hk.gl<?x?xbf16>")
    max_error = float(lines[1].split()[0])
    assert max_error < 0.5  # |C| <= ~40 here; bf16 keeps 8 bits
