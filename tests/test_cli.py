"""The ``elfer`` command: check, simulate, rules, help and bad arguments.

Mostly in-process through ``companion.cli.main``; a few tests run the installed
console script, the way a user does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.presets import PRESETS
from helpers import EXAMPLE, SUMMARY_FIELDS

ACCEPTED = EXAMPLE[:5]
SKIPPED = EXAMPLE[:3] + ['{"event": "place", "card": "R13", "t_ms": 1200}']


def console_script() -> str:
    script = Path(sys.executable).with_name("elfer")
    if script.exists():
        return str(script)
    found = shutil.which("elfer")
    if not found:
        pytest.skip("the elfer console script is not installed")
    return found


def run_script(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([console_script(), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})}, cwd=cwd)


def write(tmp_path: Path, lines: list[str], name: str = "record.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def call(argv: list[str]) -> int:
    """``main`` as the console script runs it: argparse errors become their exit status."""
    try:
        return main(argv)
    except SystemExit as exit_:
        return exit_.code
    except Exception as error:  # a traceback is never the answer to a user's input
        pytest.fail(f"elfer {' '.join(argv)} raised {error!r}")


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ----------------------------------------------------------------- check: exit status
def test_check_all_accepted_exits_0(tmp_path, capsys):
    assert call(["check", str(write(tmp_path, ACCEPTED))]) == 0
    out = capsys.readouterr().out
    assert "Alle 5 Zeilen in Ordnung" in out


def test_check_rejected_line_exits_1(tmp_path, capsys):
    assert call(["check", str(write(tmp_path, EXAMPLE))]) == 1
    assert call(["check", str(write(tmp_path, SKIPPED)), "--json"]) == 1


def test_check_empty_file_exits_0(tmp_path, capsys):
    assert call(["check", str(write(tmp_path, []))]) == 0
    capsys.readouterr()
    assert call(["check", str(write(tmp_path, ["", "  "])), "--json"]) == 0
    lines = json_lines(capsys.readouterr().out)
    assert len(lines) == 1 and "summary" in lines[0]
    assert lines[0]["summary"]["games"] == 0


def test_check_unreadable_path_exits_2(tmp_path, capsys):
    missing = tmp_path / "missing.jsonl"
    assert call(["check", str(missing)]) == 2
    captured = capsys.readouterr()
    assert "missing.jsonl" in captured.err
    assert captured.out == ""
    assert call(["check", str(tmp_path)]) == 2  # a directory


@pytest.mark.parametrize("bad", ["not json", '{"event": "next"', "{'event': 'draw'}"])
@pytest.mark.parametrize("as_json", [False, True])
def test_check_non_json_line_exits_2_naming_the_line(tmp_path, capsys, bad, as_json):
    path = write(tmp_path, [EXAMPLE[0], "", EXAMPLE[1], bad, EXAMPLE[2]])
    argv = ["check", str(path)] + (["--json"] if as_json else [])
    assert call(argv) == 2
    captured = capsys.readouterr()
    assert "line 4" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""  # no verdicts for a file that is not JSON Lines


def test_check_non_utf8_file_exits_2(tmp_path, capsys):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"event": "start", "players": ["Jürgen", "Ben"]}\n'.encode("latin-1"))
    assert call(["check", str(path)]) == 2
    assert capsys.readouterr().err


def test_check_json_that_is_not_an_event_is_a_rejection_not_unreadable(tmp_path, capsys):
    path = write(tmp_path, [EXAMPLE[0], "[1, 2]", "null", '{"event": "fold"}', '{"no": "event"}'])
    assert call(["check", str(path), "--json"]) == 1
    lines = json_lines(capsys.readouterr().out)
    assert [line.get("error") for line in lines[:-1]] == [None, "bad_event", "bad_event", "bad_event", "bad_event"]


# ----------------------------------------------------------------- check --json
def test_check_json_output_format(tmp_path, capsys):
    record = [EXAMPLE[0], "", EXAMPLE[1], EXAMPLE[2], '{"event": "place", "card": "R13", "t_ms": 99}',
              EXAMPLE[3], "   ", EXAMPLE[4], EXAMPLE[5]]
    assert call(["check", str(write(tmp_path, record)), "--json"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert all(line.strip() for line in lines)  # one JSON object per line, nothing else
    decoded = [json.loads(line) for line in lines]
    verdicts, last = decoded[:-1], decoded[-1]
    # every non-blank input line gets a line, in order, numbered as in the file
    assert [v["line"] for v in verdicts] == [1, 3, 4, 5, 6, 8, 9]
    assert [v["event"] for v in verdicts] == ["start", "place", "next", "place", "draw", "undo", "penalty"]
    for verdict in verdicts:
        assert {"line", "event", "ok", "error", "message"} <= set(verdict)
        if verdict["ok"]:
            assert verdict["ok"] is True and verdict["error"] is None
        else:
            assert verdict["ok"] is False and isinstance(verdict["error"], str) and verdict["message"]
    assert [v["ok"] for v in verdicts] == [True, True, True, False, True, True, False]
    assert verdicts[3] == {**verdicts[3], "line": 5, "event": "place", "ok": False, "error": "skipped_number",
                           "message": "Rot 12 fehlt"}
    assert verdicts[6]["error"] == "bad_penalty"
    # then one last line: the summary
    assert list(last) == ["summary"]
    state = last["summary"]
    assert SUMMARY_FIELDS <= set(state)
    assert state["over"] is False and state["winner"] is None
    assert state["current"] == "Cem"
    assert state["hands"] == {"Anna": 20, "Ben": 19, "Cem": 20}
    assert state["stock"] == 20
    assert state["rows"]["R"] == [11, 11]
    assert state["penalties"] == {} and state["totals"] == {"Anna": 0, "Ben": 0, "Cem": 0}
    assert state["games"] == 0


def test_check_json_messages_in_english(tmp_path, capsys):
    assert call(["check", str(write(tmp_path, SKIPPED)), "--json", "--lang", "en"]) == 1
    lines = json_lines(capsys.readouterr().out)
    assert lines[3]["error"] == "skipped_number"
    assert lines[3]["message"] == "Red 12 is missing"


# ----------------------------------------------------------------- check: human output
@pytest.mark.parametrize(
    "lang, shown, not_shown",
    [
        pytest.param(
            [],
            ["Zeile", "abgelehnt", "skipped_number", "Rot 12 fehlt", "1 von 4 Zeilen abgelehnt", "Nachziehstapel: 20"],
            ["line", "rejected", "Stock", "is missing"],
            id="german-by-default",
        ),
        pytest.param(
            ["--lang", "en"],
            ["line", "rejected", "Red 12 is missing", "1 of 4 lines rejected", "Stock: 20"],
            ["Zeile", "abgelehnt", "fehlt", "Nachziehstapel"],
            id="english",
        ),
    ],
)
def test_check_human_output_language(tmp_path, capsys, lang, shown, not_shown):
    assert call(["check", str(write(tmp_path, SKIPPED)), *lang]) == 1
    out = capsys.readouterr().out
    for text in shown:
        assert text in out
    for text in not_shown:
        assert text not in out


def test_check_human_output_names_every_rejected_line(tmp_path, capsys):
    record = SKIPPED + ['{"event": "next", "player": "Anna"}', '{"event": "fold"}']
    assert call(["check", str(write(tmp_path, record)), "--lang", "en"]) == 1
    out = capsys.readouterr().out
    rejected = [line for line in out.splitlines() if "rejected (" in line]
    assert len(rejected) == 3
    assert " 4 " in rejected[0] and " 5 " in rejected[1] and " 6 " in rejected[2]
    assert "3 of 6 lines rejected" in out


def test_check_unhashable_event_field_is_rejected(tmp_path, capsys):
    path = write(tmp_path, [EXAMPLE[0], '{"event": ["next"]}', EXAMPLE[1]])
    assert call(["check", str(path), "--json"]) == 1
    lines = json_lines(capsys.readouterr().out)
    assert [line.get("ok") for line in lines[:-1]] == [True, False, True]


def test_check_card_as_list_is_rejected(tmp_path, capsys):
    path = write(tmp_path, [EXAMPLE[0], '{"event": "place", "card": ["R", 11]}', EXAMPLE[1]])
    assert call(["check", str(path), "--json"]) == 1
    lines = json_lines(capsys.readouterr().out)
    assert [line.get("ok") for line in lines[:-1]] == [True, False, True]
    assert lines[1]["error"] == "bad_event"


# ----------------------------------------------------------------- simulate
def test_simulate_out_writes_records_that_check_accepts(tmp_path, capsys):
    out = tmp_path / "records"
    assert call(["simulate", "--players", "3", "--sessions", "3", "--seed", "4", "--bots", "sensible,random",
                 "--out", str(out)]) == 0
    files = sorted(out.iterdir())
    assert [f.name for f in files] == ["session-001.jsonl", "session-002.jsonl", "session-003.jsonl"]
    capsys.readouterr()
    for path in files:
        assert call(["check", str(path), "--json"]) == 0, path
        lines = json_lines(capsys.readouterr().out)
        assert all(line["ok"] for line in lines[:-1])
        assert len(lines) - 1 == len(path.read_text(encoding="utf-8").splitlines())
        session = lines[-1]["summary"]["session"]
        assert session["over"] is True
        assert session["winners"]
        assert lines[-1]["summary"]["games"] == 3  # one game per player


@pytest.mark.parametrize("rules", list(PRESETS))
def test_simulate_every_preset_checks_clean(tmp_path, capsys, rules):
    out = tmp_path / rules
    players = "2" if rules == "sixty" else "3"
    assert call(["simulate", "--rules", rules, "--players", players, "--games", "2", "--seed", "9",
                 "--bots", "random,sensible", "--out", str(out)]) == 0
    capsys.readouterr()
    (record,) = out.iterdir()
    assert call(["check", str(record)]) == 0
    assert "Sitzung vorbei" in capsys.readouterr().out


def test_simulate_reports_in_german_and_english(capsys):
    assert call(["simulate", "--players", "2", "--seed", "3"]) == 0
    german = capsys.readouterr().out
    assert "Sitzung 1" in german and "Züge pro Spiel" in german
    assert call(["simulate", "--players", "2", "--seed", "3", "--lang", "en"]) == 0
    english = capsys.readouterr().out
    assert "Session 1" in english and "Turns per game" in english


def test_simulate_json_prints_statistics(capsys):
    assert call(["simulate", "--players", "4", "--sessions", "2", "--seed", "3", "--json"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    stats = json.loads(line)
    assert stats["sessions"] == 2
    assert stats["games"] == 8
    assert {"turns", "draws", "events", "penalty_spread", "redeals", "win_rate"} <= set(stats)
    assert stats["win_rate"] == {"sensible": 0.25}


def test_simulate_limit_and_playoff(tmp_path, capsys):
    out = tmp_path / "limit"
    assert call(["simulate", "--players", "3", "--limit", "150", "--tiebreak", "playoff", "--seed", "2",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    (record,) = out.iterdir()
    assert call(["check", str(record), "--json"]) == 0
    state = json_lines(capsys.readouterr().out)[-1]["summary"]
    assert state["session"]["limit"] == 150
    assert state["session"]["over"] is True
    assert max(state["totals"].values()) >= 150


def read_dir(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def test_simulate_same_seed_gives_identical_records(tmp_path, capsys):
    argv = ["simulate", "--players", "3", "--sessions", "2", "--bots", "random,sensible", "--seed", "21"]
    assert call(argv + ["--out", str(tmp_path / "a")]) == 0
    assert call(argv + ["--out", str(tmp_path / "b")]) == 0
    assert call(argv[:-1] + ["22", "--out", str(tmp_path / "c")]) == 0
    a, b, c = read_dir(tmp_path / "a"), read_dir(tmp_path / "b"), read_dir(tmp_path / "c")
    assert a == b
    assert a.keys() == c.keys()
    assert a != c


def test_simulate_same_seed_gives_identical_records_across_processes(tmp_path):
    """Separate runs of the command, as a user makes them: the same seed must replay the same games.

    (Cards hash by identity; hands kept in sets once made the bots' choices depend on memory layout.)
    """
    argv = ["simulate", "--players", "6", "--sessions", "20", "--bots", "random", "--seed", "7"]
    outputs = set()
    for run in range(6):
        out = tmp_path / f"run{run}"
        result = run_script(*argv, "--out", str(out))
        assert result.returncode == 0, result.stderr
        outputs.add(tuple(read_dir(out).items()))
    assert len(outputs) == 1


def test_simulate_out_onto_a_file_is_a_clear_error(tmp_path, capsys):
    target = tmp_path / "taken"
    target.write_text("x")
    code = call(["simulate", "--players", "2", "--out", str(target)])
    assert code == 2
    assert "taken" in capsys.readouterr().err


# ----------------------------------------------------------------- rules
def test_rules_lists_all_presets(capsys):
    assert call(["rules"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert names == list(PRESETS)
    assert "Elfer raus! (Anleitung)" in out


def test_rules_titles_in_english(capsys):
    assert call(["rules", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Elfer raus! (manual)" in out
    assert "Two players, 60 cards" in out


@pytest.mark.parametrize("name", list(PRESETS))
def test_rules_describes_one_preset(capsys, name):
    assert call(["rules", name]) == 0
    out = capsys.readouterr().out
    assert out.split()[0] == name
    assert PRESETS[name].description in out
    for other in PRESETS:
        if other != name:
            assert not any(line.split()[:1] == [other] for line in out.splitlines())


# ----------------------------------------------------------------- help
HELP = {
    (): ["simulate", "check", "rules", "bench"],
    ("simulate",): ["--players", "--rules", "--games", "--limit", "--tiebreak", "--sessions", "--seed", "--bots",
                    "--out", "--json", "--lang"],
    ("check",): ["RECORD.jsonl", "--json", "--lang"],
    ("rules",): ["name", "--lang"],
    ("bench",): ["rules", "--repeat", "--games"],
}


@pytest.mark.parametrize("command", list(HELP), ids=lambda c: " ".join(c) or "elfer")
def test_help_exits_0_and_mentions_options(capsys, command):
    with pytest.raises(SystemExit) as info:
        main([*command, "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for option in HELP[command]:
        assert option in out


def test_check_help_documents_the_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "0" in out and "1" in out and "2" in out
    assert "JSON Lines" in out


# ----------------------------------------------------------------- bad arguments
@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "--rules", "nope"], ["nope", "classic"]),
        (["simulate", "--players", "7"], ["--players", "7"]),
        (["simulate", "--players", "1"], ["--players"]),
        (["simulate", "--players", "three"], ["--players"]),
        (["simulate", "--bots", "clever"], ["clever", "random", "sensible"]),
        (["simulate", "--sessions", "0"], ["--sessions"]),
        (["simulate", "--games", "-2"], ["--games"]),
        (["simulate", "--tiebreak", "coin"], ["--tiebreak"]),
        (["simulate", "--seed", "x"], ["--seed"]),
        (["rules", "nope"], ["nope"]),
        (["check"], ["RECORD.jsonl"]),
        (["check", "x.jsonl", "--lang", "fr"], ["--lang"]),
        (["frobnicate"], ["frobnicate"]),
        ([], ["COMMAND"]),
    ],
)
def test_bad_arguments_give_a_clear_error(capsys, argv, words):
    assert call(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "error" in err or "elfer" in err
    for word in words:
        assert word in err


def test_sixty_with_three_players_is_a_clear_error(capsys):
    assert call(["simulate", "--rules", "sixty", "--players", "3"]) == 2
    captured = capsys.readouterr()
    assert "sixty" in captured.err and "2" in captured.err and "3" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""


# ----------------------------------------------------------------- the real console script
def test_console_script_check_exit_codes(tmp_path):
    good = run_script("check", str(write(tmp_path, ACCEPTED, "good.jsonl")))
    assert good.returncode == 0, good.stderr
    bad = run_script("check", str(write(tmp_path, EXAMPLE, "bad.jsonl")), "--json")
    assert bad.returncode == 1
    lines = json_lines(bad.stdout)
    assert [line.get("ok") for line in lines[:-1]] == [True] * 5 + [False]
    assert "summary" in lines[-1]
    broken = run_script("check", str(write(tmp_path, [EXAMPLE[0], "{oops"], "broken.jsonl")))
    assert broken.returncode == 2
    assert "line 2" in broken.stderr and "Traceback" not in broken.stderr
    missing = run_script("check", str(tmp_path / "nowhere.jsonl"))
    assert missing.returncode == 2
    assert "nowhere.jsonl" in missing.stderr and "Traceback" not in missing.stderr


def test_console_script_simulate_then_check(tmp_path):
    out = tmp_path / "sim"
    sim = run_script("simulate", "--players", "2", "--rules", "junior", "--seed", "5", "--out", str(out),
                     "--lang", "en")
    assert sim.returncode == 0, sim.stderr
    assert "Records written to" in sim.stdout
    (record,) = out.iterdir()
    checked = run_script("check", str(record), "--lang", "en")
    assert checked.returncode == 0, checked.stdout
    assert "lines accepted" in checked.stdout


def test_console_script_bad_arguments(tmp_path):
    for argv in (["simulate", "--rules", "nope"], ["simulate", "--players", "7"],
                 ["simulate", "--rules", "sixty", "--players", "3"]):
        result = run_script(*argv)
        assert result.returncode == 2, argv
        assert "Traceback" not in result.stderr
        assert result.stderr.strip()


def junior_game(winner: str, penalties: dict, options: dict | None = None, players=("Anna", "Ben", "Cem")) -> list[str]:
    start = {"event": "start", "players": list(players), "rules": "junior"}
    if options:
        start["options"] = options
    lines = [json.dumps(start), json.dumps({"event": "place", "card": "R2", "player": winner})]
    lines += [json.dumps({"event": "place", "card": f"R{n}"}) for n in range(3, 7)]
    lines += [json.dumps({"event": "penalty", "player": p, "points": v}) for p, v in penalties.items()]
    return lines


def test_check_reports_a_pending_playoff_and_the_session_winner(tmp_path, capsys):
    record = junior_game("Anna", {"Ben": 20, "Cem": 30}, {"games": 2, "tiebreak": "playoff"})
    record += junior_game("Ben", {"Anna": 20, "Cem": 30})
    path = write(tmp_path, record)
    assert call(["check", str(path)]) == 0
    assert "Stechen zwischen: Anna, Ben" in capsys.readouterr().out
    assert call(["check", str(path), "--lang", "en"]) == 0
    assert "Deciding game between: Anna, Ben" in capsys.readouterr().out
    record += junior_game("Ben", {"Anna": 13}, players=("Anna", "Ben"))
    path = write(tmp_path, record)
    assert call(["check", str(path), "--json"]) == 0
    state = json_lines(capsys.readouterr().out)[-1]["summary"]
    assert state["session"]["over"] is True
    assert state["session"]["winners"] == ["Ben"]
    assert state["totals"] == {"Anna": 33, "Ben": 20, "Cem": 60}
    assert call(["check", str(path), "--lang", "en"]) == 0
    assert "Session over, won by: Ben" in capsys.readouterr().out


def test_check_accepts_crlf_line_ends(tmp_path, capsys):
    path = tmp_path / "windows.jsonl"
    path.write_bytes(("\r\n".join(ACCEPTED) + "\r\n\r\n").encode("utf-8"))
    assert call(["check", str(path), "--json"]) == 0
    lines = json_lines(capsys.readouterr().out)
    assert [line["line"] for line in lines[:-1]] == [1, 2, 3, 4, 5]
