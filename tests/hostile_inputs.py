"""The hostile inputs of the reliability report (shared/findings/reliability.md), rebuilt from its recipes.

`make_inputs(folder)` writes every hostile file; ROWS lists each command of Appendix A and §2 (but
§2.1, the referee's SAN) with what it must now print. Run as a script, it runs every row through the
real `dealer` and prints a table: `.venv/bin/python tests/hostile_inputs.py`.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

PIECE = 'id = {id}\nname = "X"\ngroup = "piece"\ncode = "ZZQ"\nbetza = {betza}\ntext = "t"\n'
GAME = 'id = "g"\nname = "G"\nboard = "8x8"\nstart = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"\n'
DEVICE_ROWS = {"catalogue-device", "save-device", "render-device"}


@dataclass(frozen=True)
class Row:
    """One hostile command: what it runs (in the inputs folder), the exit status and a fragment of the one line."""

    name: str
    args: tuple[str, ...]
    fragment: str
    status: int = 1
    representative: bool = False  # also run in the default (fast, in-process) test run


def _piece(betza: str, piece_id: str = "fuzz", extra: str = "") -> str:
    return "[[piece]]\n" + PIECE.format(id=json.dumps(piece_id), betza=json.dumps(betza)) + extra


def _profile(key: str, value: str) -> str:
    pod = Path(__file__).parent.parent / "dealers_chess" / "assets" / "profiles" / "pod.toml"
    lines = pod.read_text().splitlines()
    return "\n".join(f"{key} = {value}" if line.startswith(f"{key} =") else line for line in lines) + "\n"


XBETZA = {
    "b002": "W²", "b003": "G²N2Fs٣lW0p)Al٣u", "b004": "vW5NG2²rDduhz", "b005": "B²+,ia-o(9Bz0,", "b006": "N²i",
    "b007": "ZG²éZoui+", "b008": "B²)t\t)GCcs5K-t9", "b009": "pQK2²(i8o", "b307": "(" + "1" * 5000 + ",1)",
    "b308": "W" + "1" * 5000, "b312": "aaaQ", "b313": "a" * 20 + "W", "b400": "aaQ", "b401": "alraQ",
    "b402": "blNWabsaegF0", "b403": "N15avabspQ", "b404": "ya(15,15)aagRissF", "b405": "ir(15,15)1maaleQ",
}
DEAL_CHANGES = {
    "white-string": lambda d: d.update(white="x"),
    "royal-list": lambda d: d["white"].update(royal=["king"]),
    "dealt-list": lambda d: d["white"].update(dealt=[1]),
    "dealt-pieces-int": lambda d: d["white"]["dealt"].update(pieces=5),
    "shared-int": lambda d: d.update(shared=5),
    "back-rank-int": lambda d: d["white"].update(back_rank=5),
    "back-rank-mixed": lambda d: d["white"]["back_rank"].__setitem__(0, 3),
    "version-99": lambda d: d.update(version=99),
}


def make_inputs(folder: Path, deal: dict) -> None:
    """Write every hostile input file into folder (`deal` is a saved `dealer deal --seed 42`)."""
    files = {
        "cat/rank-captures-key-superscript.toml": _piece("W", "x", 'rank_captures = { "²" = "W" }\n'),
        "cat/rank-captures-key-huge.toml": _piece("W", "x", f'rank_captures = {{ "{"1" * 5000}" = "W" }}\n'),
        "cat/deep-nesting.toml": "a = " + "[" * 5000 + "]" * 5000 + "\n",
        "cat/deep-inline-tables.toml": "a = " + "{b = " * 3000 + "1" + "}" * 3000 + "\n",
        "cat/huge-number.toml": "[[piece]]\nvalue = " + "9" * 5000 + "\n",
        "cat/id-newline.toml": _piece("W", "zz-piece\n"),
        "cat/code-newline.toml": _piece("W").replace('"ZZQ"', '"ZQ\\n"'),
        "cat/control-name.toml": _piece("W", "ctrl").replace('name = "X"', 'name = "bell\\u0007 esc\\u001b[31m"'),
        "cat/evil-sets.toml": _piece("W", "evil-one", 'sets = ["esc/abs-set"]\ngames = ["../../../../rel-game"]\n'),
        "games/pawn-rank-string.toml": GAME + 'pawn_rank = "two"\n',
        "games/pawn-rank-list.toml": GAME + "pawn_rank = [2]\n",
        "games/pawn-rank-99.toml": GAME + "pawn_rank = 99\n",
        "games/castling-partners-int.toml": GAME + "castling_partners = 5\n",
        "games/promotion-pieces-string.toml": GAME + 'promotion_pieces = "queen"\n',
        "deal/arr-rows-int.toml": "[white]\nrows = 5\n",
        "deal/arr-rows-ints.toml": "[white]\nrows = [1, 2]\n",
        "deal/arr-pawns-int.toml": "[white]\npawns = 5\n",
        "deal/arr-back-rank-int.toml": "[white]\nback_rank = 5\n",
        "deal/deck-wrong-type.toml": "royals = 5\n",
        "prof/inf-width.toml": _profile("page_width_pt", "inf"),
        "prof/nan-card.toml": _profile("card_width_pt", "nan"),
        "prof/nan-left.toml": _profile("left_pt", "nan"),
        "prof/nan-width.toml": _profile("page_width_pt", "nan"),
        "prof/huge-width.toml": _profile("page_width_pt", "1e300"),
        "dealfiles/deep-nesting.json": "[" * 100_000 + "]" * 100_000,
    }
    files.update({f"fuzz/cli/{name}.toml": _piece(betza) for name, betza in XBETZA.items()})
    for name, change in DEAL_CHANGES.items():
        data = json.loads(json.dumps(deal))
        change(data)
        files[f"dealfiles/{name}.json"] = json.dumps(data)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (folder / "dirs" / "a-folder").mkdir(parents=True, exist_ok=True)
    (folder / "dirs" / "game.toml").mkdir(exist_ok=True)
    (folder / "out-file").write_text("not a folder\n")
    (folder / "links" / "real.json").parent.mkdir(parents=True, exist_ok=True)
    (folder / "links" / "real.json").write_text("{}\n")
    for link, target in (("links/link.json", "real.json"), ("links/stdout", "/proc/self/fd/1")):
        if not (folder / link).is_symlink():
            (folder / link).symlink_to(target)


def make_devices(folder: Path) -> bool:
    """Copies of /dev/zero and /dev/full made with mknod (never the real /dev); False if not allowed."""
    (folder / "devs").mkdir(exist_ok=True)
    try:
        for name, minor in (("zero", 5), ("full", 7), ("full2", 7)):
            if not (folder / "devs" / name).exists():
                os.mknod(folder / "devs" / name, 0o666 | 0o020000, os.makedev(1, minor))
    except (PermissionError, AttributeError):
        return False
    return True


def _xbetza_rows() -> list[Row]:
    rows = [Row(f"xbetza-{name}", ("piece", "fuzz", "--json", "--catalogue", f"fuzz/cli/{name}.toml"),
                "piece 'fuzz': betza: ")
            for name in XBETZA]
    return rows + [
        Row("catalogue-aaaQ", ("catalogue", "--catalogue", "fuzz/cli/b312.toml"), "more than 256 paths",
            representative=True),
        Row("moves-unused-21-legs", ("moves", "chess", "--catalogue", "fuzz/cli/b313.toml"), "at most 4 legs"),
    ]


def _deal_file_rows() -> list[Row]:
    rows = [Row("moves-deal-deep", ("moves", "--deal", "dealfiles/deep-nesting.json"), "nested too deeply"),
            Row("cards-deal-deep", ("cards", "--deal", "dealfiles/deep-nesting.json", "--out", "out"),
                "nested too deeply"),
            Row("plate-deal-deep", ("plate", "--deal", "dealfiles/deep-nesting.json", "--out", "out"),
                "nested too deeply")]
    fragments = {
        "white-string": "white: expected a table", "royal-list": "white.royal: expected", "dealt-list": "white.dealt:",
        "dealt-pieces-int": "white.dealt.pieces:", "shared-int": "shared: expected a list",
        "back-rank-int": "white.back_rank:", "back-rank-mixed": "white.back_rank[0]:", "version-99": "version 99",
    }
    for name, fragment in fragments.items():
        for command in ("cards", "plate"):
            args = (command, "--deal", f"dealfiles/{name}.json", "--out", "out")
            rows.append(Row(f"{command}-deal-{name}",
                            args + (("--pictures", "silhouette") if command == "cards" else ()),
                            fragment, representative=name == "back-rank-mixed"))
    return rows


def _usage_rows() -> list[Row]:
    """Appendix A4: click's usage errors, now one line each (status 2)."""
    cases = [
        (("deal", "--seed", "1.5"), "--seed"), (("deal", "--seed", ""), "--seed"),
        (("deal", "--seed", "0x10"), "--seed"), (("deal", "--seed", "9" * 5000), "--seed"),
        (("deal", "--board", "9x9"), "--board"),
        (("deal", "--board", "0x0"), "--board"), (("deal", "--board", "100x100"), "--board"),
        (("deal", "--max-imbalance", "abc"), "--max-imbalance"), (("pieces", "--square-mm", "abc"), "--square-mm"),
        (("diagram", "knight", "--dpi", "abc"), "--dpi"), (("render", "knight", "--width", "31"), "--width"),
        (("render", "knight", "--width", "4001"), "--width"), (("perft", "chess", "--depth", "-1"), "--depth"),
        (("perft", "chess", "--depth", "13"), "--depth"),
        (("catalogue", "--group", "nosuch"), "--group: 'nosuch' is not one of"),
        (("render", "knight", "--colour", "red"), "--colour"), (("diagram", "knight", "--format", "jpg"), "--format"),
        (("backs", "--duplex", "sideways"), "--duplex"), (("deal", "--bogus"), "No such option"),
    ]
    return [Row(f"usage-{'-'.join(args)[:40]}", args, fragment, status=2) for args, fragment in cases]


def _folder_as_file_rows() -> list[Row]:
    """A folder where a file is expected: our own one line, status 1."""
    cases = [
        ("catalogue", "--catalogue", "dirs/a-folder"), ("deal", "--deck", "dirs/a-folder"),
        ("deal", "--arrange", "dirs/a-folder"), ("cards", "--deal", "dirs/a-folder", "--out", "out"),
        ("plate", "--deal", "dirs/a-folder", "--out", "out"), ("moves", "dirs/game.toml"),
    ]
    return [Row(f"folder-as-file-{args[0]}-{args[1]}", args, "is a folder; give the") for args in cases]


def _file_as_out_rows() -> list[Row]:
    """A file where the output folder is expected: our own one line, status 1."""
    commands = [("cards", "--piece", "knight"), ("backs", "--piece", "knight"), ("calibrate",),
                ("diagram", "knight"), ("kit",), ("pieces", "--piece", "knight"), ("plate", "--piece", "knight"),
                ("deal", "--sheet")]
    return [Row(f"file-as-out-{command[0]}", (*command, "--out", "out-file"), "out-file") for command in commands]


ROWS: list[Row] = [
    Row("rank-captures-key-superscript", ("catalogue", "--catalogue", "cat/rank-captures-key-superscript.toml"),
        "rank_captures key", representative=True),
    Row("rank-captures-key-huge", ("catalogue", "--catalogue", "cat/rank-captures-key-huge.toml"),
        "rank_captures key"),
    Row("catalogue-deep-nesting", ("catalogue", "--catalogue", "cat/deep-nesting.toml"), "nested too deeply",
        representative=True),
    Row("catalogue-deep-inline-tables", ("catalogue", "--catalogue", "cat/deep-inline-tables.toml"),
        "nested too deeply"),
    Row("catalogue-huge-number", ("catalogue", "--catalogue", "cat/huge-number.toml"), "thousands of digits"),
    Row("catalogue-device", ("catalogue", "--catalogue", "devs/zero"), "is a device", representative=True),
    Row("catalogue-folder", ("catalogue", "--catalogue", "dirs/a-folder"), "is a folder"),
    Row("catalogue-id-newline", ("catalogue", "--catalogue", "cat/id-newline.toml"), "id: expected lowercase"),
    Row("catalogue-code-newline", ("catalogue", "--catalogue", "cat/code-newline.toml"),
        "code: expected 1 to 3 capital"),
    Row("catalogue-control-name", ("diagram", "ctrl", "--card", "--format", "svg", "--pictures", "silhouette",
                                   "--catalogue", "cat/control-name.toml", "--out", "out"),
        "without control characters"),
    *_xbetza_rows(),
    Row("game-pawn-rank-string", ("moves", "games/pawn-rank-string.toml"), "pawn_rank: expected a whole number",
        representative=True),
    Row("game-pawn-rank-list", ("moves", "games/pawn-rank-list.toml"), "pawn_rank: expected a whole number"),
    Row("game-pawn-rank-99", ("moves", "games/pawn-rank-99.toml"), "pawn_rank"),
    Row("game-castling-partners-int", ("moves", "games/castling-partners-int.toml"),
        "castling_partners: expected a list"),
    Row("game-promotion-pieces-string", ("moves", "games/promotion-pieces-string.toml"),
        "promotion_pieces: expected a list"),
    *[Row(f"arrange-{name}", ("deal", "--seed", "42", "--arrange", f"deal/arr-{name}.toml"), fragment,
          representative=name == "rows-int")
      for name, fragment in (("rows-int", "white.rows: expected a list"),
                             ("rows-ints", "white.rows[0]: expected a list"),
                             ("pawns-int", "white.pawns: expected a list"),
                             ("back-rank-int", "white.back_rank: expected"))],
    Row("deck-wrong-type", ("deal", "--seed", "42", "--deck", "deal/deck-wrong-type.toml"), "royals: expected a list",
        representative=True),
    *[Row(f"profile-{name}", ("cards", "--piece", "knight", "--profile", f"prof/{name}.toml",
                              "--pictures", "silhouette", "--out", "out"), fragment,
          representative=name == "nan-width")
      for name, fragment in (("inf-width", "page_width_pt: expected a number <= 14400"),
                             ("nan-card", "card_width_pt: expected a number >= 0"),
                             ("nan-left", "left_pt: expected a number >= 0"),
                             ("nan-width", "page_width_pt: expected a number >= 0"),
                             ("huge-width", "page_width_pt: expected a number <= 14400"))],
    Row("backs-offset-nan", ("backs", "--piece", "knight", "--back-offset", "nan,nan", "--out", "out"),
        "at most 20 mm"),
    Row("calibrate-offset-nan", ("calibrate", "--back-offset", "nan,0", "--out", "out"), "at most 20 mm",
        representative=True),
    *_deal_file_rows(),
    Row("board-5000-digits", ("catalogue", "--board", "9" * 5000 + "x8"), "expected FILESxRANKS",
        representative=True),
    Row("board-superscript", ("catalogue", "--board", "8x²"), "expected FILESxRANKS"),
    Row("plate-copies-100000", ("plate", "--piece", "knight", "--copies", "100000", "--out", "out"), "--copies",
        status=2, representative=True),
    Row("plate-spacing-nan", ("plate", "--piece", "knight", "--spacing", "nan", "--out", "out"), "spacing nan mm"),
    Row("plate-spacing-inf", ("plate", "--piece", "knight", "--spacing", "inf", "--out", "out"), "spacing inf mm"),
    Row("max-imbalance-nan", ("deal", "--seed", "1", "--max-imbalance", "nan"), "from 0 to 1000"),
    Row("max-imbalance-simplified", ("deal", "--seed", "1", "--board", "simplified", "--max-imbalance", "2"),
        "does not apply to the simplified game"),
    Row("save-device", ("deal", "--seed", "1", "--save", "devs/full"), "is a device, pipe or socket; not replaced",
        representative=True),
    Row("render-device", ("render", "knight", "--width", "64", "--out", "devs/full2"), "is a device, pipe or socket"),
    Row("save-symlink", ("deal", "--seed", "1", "--save", "links/link.json"), "is a symbolic link",
        representative=True),
    Row("save-stdout-symlink", ("deal", "--seed", "1", "--json", "--save", "links/stdout"),
        "is a symbolic link"),
    Row("save-folder", ("deal", "--seed", "1", "--save", "dirs/a-folder"), "is a folder"),
    Row("render-out-folder", ("render", "knight", "--out", "dirs/a-folder"), "is a folder"),
    Row("out-is-a-file", ("cards", "--piece", "knight", "--out", "out-file"), "cannot create the folder"),
    Row("escape-abs-set", ("cards", "--set", "esc/abs-set", "--out", "esc/o1", "--pictures", "silhouette",
                           "--catalogue", "cat/evil-sets.toml"), "sets[0]: expected lowercase", representative=True),
    Row("escape-rel-game", ("backs", "--game", "../../../../rel-game", "--layout", "interleaved",
                            "--pictures", "silhouette", "--out", "esc/o4/a/b", "--catalogue", "cat/evil-sets.toml"),
        "sets[0]: expected lowercase"),
    Row("seed-abc", ("deal", "--seed", "abc"), "--seed: 'abc' is not a whole number", status=2, representative=True),
    Row("unknown-command", ("shuffle",), "No such command", status=2),
    *_usage_rows(),
    *_folder_as_file_rows(),
    *_file_as_out_rows(),
]


def snapshot(folder: Path) -> dict[str, tuple]:
    """Every entry under folder with its type, size and modification time (symlinks not followed)."""
    found = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            info = path.lstat()
            found[str(path.relative_to(folder))] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return found


def outside_out(row: Row, before: dict, after: dict) -> list[str]:
    """Entries a run created or changed anywhere but under the row's --out folder."""
    out = row.args[row.args.index("--out") + 1] if "--out" in row.args else "build"
    changed = [name for name in after if before.get(name) != after[name]]
    return [name for name in changed if name != out and not name.startswith(out + "/")]


def run_all(folder: Path, dealer: str) -> list[tuple[Row, int, str, float, list[str]]]:
    """Run every row through the real `dealer`: (row, status, stderr, CPU seconds, files changed outside out)."""
    results = []
    for row in ROWS:
        before = snapshot(folder)
        started = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([dealer, *row.args], cwd=folder, capture_output=True, text=True, timeout=60)
        ended = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (ended.ru_utime - started.ru_utime) + (ended.ru_stime - started.ru_stime)
        results.append((row, done.returncode, done.stderr, cpu, outside_out(row, before, snapshot(folder))))
    return results


def _deal_data(dealer: str, folder: Path) -> dict:
    done = subprocess.run([dealer, "deal", "--seed", "42", "--json"], cwd=folder, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


if __name__ == "__main__":
    import tempfile

    dealer = str(Path(sys.executable).parent / "dealer")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        make_inputs(folder, _deal_data(dealer, folder))
        devices = make_devices(folder)
        failures = 0
        for row, status, stderr, cpu, outside in run_all(folder, dealer):
            lines = stderr.strip().splitlines()
            ok = status == row.status and len(lines) == 1 and row.fragment in lines[0] and cpu < 2 and not outside
            skipped = row.name in DEVICE_ROWS and not devices
            failures += not ok and not skipped
            mark = "skip" if skipped else "ok  " if ok else "FAIL"
            print(f"{mark} {row.name:34} exit {status} {cpu:4.2f}s  {(lines or [''])[-1][:110]}")
            if outside:
                print(f"     wrote outside out: {outside}")
        print(f"{len(ROWS)} rows, {failures} failed")
        sys.exit(1 if failures else 0)
