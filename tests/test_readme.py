"""The README's record example and its `elfer check --json` output must stay true."""

import json
from pathlib import Path

from companion.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"


def _code_blocks(after: str) -> list[str]:
    text = README.read_text(encoding="utf-8").split(after, 1)[1]
    return text.split("```")[1::2]


def test_readme_check_output_matches_the_readme_record(tmp_path, capsys):
    record_block, output_block = _code_blocks("## The game record (JSON Lines)")[:2]
    record = tmp_path / "readme.jsonl"
    record.write_text(record_block.strip() + "\n", encoding="utf-8")

    status = main(["check", str(record), "--json"])

    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    shown = [json.loads(line) for line in output_block.strip().splitlines()]
    by_line = {item["line"]: item for item in printed if "line" in item}
    for item in shown:
        if "summary" in item:
            assert item == printed[-1]
        else:
            assert by_line[item["line"]] == item
    assert status == 1  # the README's last line is shown rejected
