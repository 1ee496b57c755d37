"""The record example in docs/record.md and its `elfer check --json` output must stay true."""

import json
import re
from pathlib import Path

from companion.cli import main

RECORD_DOC = Path(__file__).resolve().parent.parent / "docs" / "record.md"
EXAMPLE_HEADING = "## An example"


def _code_blocks(after: str) -> list[str]:
    """The fenced code blocks after a heading, without their fences and info strings."""
    text = RECORD_DOC.read_text(encoding="utf-8").split(after, 1)[1]
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def test_check_output_matches_the_documented_record(tmp_path, capsys):
    record_block, output_block = _code_blocks(EXAMPLE_HEADING)[:2]
    record = tmp_path / "example.jsonl"
    record.write_text(record_block.strip() + "\n", encoding="utf-8")

    status = main(["check", str(record), "--json"])

    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    shown = [json.loads(line) for line in output_block.strip().splitlines()]
    assert shown, "the documented output is empty"
    by_line = {item["line"]: item for item in printed if "line" in item}
    for item in shown:
        if "summary" in item:
            assert item == printed[-1]
        else:
            assert by_line[item["line"]] == item
    assert "summary" in shown[-1]  # the page shows the summary line
    assert status == 1  # the example's last line is shown rejected
