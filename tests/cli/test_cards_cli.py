"""The card commands as a user runs them: files written, one-line errors, nothing half-written."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from pdfplumber import open as pdfplumber_open
from PIL import Image
from pypdf import PdfReader

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_cards_writes_the_starter_deck(tmp_path) -> None:
    result = run("cards", "--out", str(tmp_path), "--pictures", "silhouette")
    assert result.exit_code == 0, result.output
    path = tmp_path / "cards" / "starter-cards.pdf"
    assert f"wrote {path} (10 pages)" in result.output
    assert len(PdfReader(path).pages) == 10


def test_cards_by_group_and_piece(tmp_path) -> None:
    result = run("cards", "--group", "pawn", "--out", str(tmp_path), "--pictures", "silhouette")
    assert result.exit_code == 0 and "starter-pawn-cards.pdf (4 pages)" in result.output
    result = run("cards", "--piece", "knight", "--piece", "rook", "--profile", "a4-cut", "--out", str(tmp_path),
                 "--pictures", "silhouette")
    assert result.exit_code == 0 and "custom-a4-cut-cards.pdf (1 page)" in result.output


@pytest.mark.parametrize("args, message", [
    (("--set", "nope"), "unknown set 'nope'"),
    (("--group", "kings"), "unknown group 'kings'"),
    (("--piece", "knite"), "unknown piece 'knite'"),
    (("--game", "go"), "unknown game 'go'"),
    (("--profile", "letter-3x5"), "unknown profile 'letter-3x5'"),
])
def test_bad_selection_is_one_line_and_writes_nothing(tmp_path, args, message) -> None:
    result = run("cards", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert _files(tmp_path / "out") == []


def test_impossible_profile_is_refused(tmp_path) -> None:
    profile = tmp_path / "three.toml"
    profile.write_text(
        "page_width_pt = 612\npage_height_pt = 792\ncolumns = 3\nrows = 4\ncard_width_pt = 306\n"
        "card_height_pt = 198\nleft_pt = 0\ntop_pt = 0\ngap_x_pt = 0\ngap_y_pt = 0\nbleed_pt = 0\n"
        "crop_marks = false\ntrim_box = false\n"
    )
    result = run("backs", "--profile", str(profile), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "3 x 4 cards need 918.0 x 792.0 pt but the page is 612 x 792 pt" in result.output
    assert _files(tmp_path / "out") == []


def test_unwritable_out_is_one_line(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = run("cards", "--out", str(blocker / "deck"), "--pictures", "silhouette")
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1 and "cannot create the folder" in result.output


def test_bad_back_offset(tmp_path) -> None:
    result = run("backs", "--back-offset", "1,2,3", "--out", str(tmp_path))
    assert result.exit_code == 1 and "expected X,Y in mm" in result.output


def test_backs_and_calibration(tmp_path) -> None:
    result = run("backs", "--duplex", "short", "--layout", "pages", "--back-offset", "1,-0.5", "--out", str(tmp_path))
    assert result.exit_code == 0 and "starter-backs-per-page.pdf (10 pages)" in result.output
    result = run("backs", "--out", str(tmp_path))
    assert result.exit_code == 0 and "starter-backs.pdf (4 pages)" in result.output
    result = run("calibrate", "--out", str(tmp_path))
    assert result.exit_code == 0
    reader = PdfReader(tmp_path / "cards" / "calibration.pdf")
    assert len(reader.pages) == 2 and "50 mm" in reader.pages[0].extract_text()


def test_diagram_as_svg_png_and_pdf(tmp_path) -> None:
    assert run("diagram", "nightrider", "--out", str(tmp_path)).exit_code == 0
    svg = ElementTree.parse(tmp_path / "cards" / "nightrider-diagram.svg").getroot()
    assert svg.tag.endswith("svg") and svg.get("width") == "198pt"
    assert run("diagram", "knight", "--card", "--format", "png", "--pictures", "silhouette",
               "--out", str(tmp_path)).exit_code == 0
    with Image.open(tmp_path / "cards" / "knight-card.png") as image:
        assert image.size == (1275, 825)
    assert run("diagram", "knight", "--card", "--bleed", "--format", "png", "--pictures", "silhouette",
               "--out", str(tmp_path)).exit_code == 0
    with Image.open(tmp_path / "cards" / "knight-card-bleed.png") as image:
        assert image.size == (1350, 900)
    assert run("diagram", "rook", "--format", "pdf", "--out", str(tmp_path)).exit_code == 0
    assert float(PdfReader(tmp_path / "cards" / "rook-diagram.pdf").pages[0].mediabox.width) == 198


@pytest.mark.xdist_group("readme-kit")
def test_kit_writes_everything_and_a_note(readme_kit) -> None:
    """The README's `dealer kit` (rendered pictures, the default), run once per test run by tests/conftest.py."""
    assert readme_kit.returncode == 0, readme_kit.stderr[-2000:]
    _check_kit(readme_kit.folder / "build", readme_kit.stdout)
    starter = [piece.id for piece in load_catalogue().select(sets=["starter"])]
    pictures = {path.name.rsplit("-", 2)[0] for path in (readme_kit.folder / "build" / "render-cache").glob("*.png")}
    assert pictures == set(starter)  # every starter card's picture rendered from its 3D piece


@pytest.mark.slow  # the default run checks the same steps and note with rendered pictures (the test above)
def test_kit_with_silhouettes_writes_everything_and_a_note(tmp_path) -> None:
    result = run("kit", "--out", str(tmp_path), "--pictures", "silhouette")
    assert result.exit_code == 0, result.output
    _check_kit(tmp_path, result.output)


def _check_kit(folder: Path, output: str) -> None:
    """A kit folder: the note names every file written, each plate comes as STL and project, no temporary files."""
    note = (folder / "HOW-TO-PRINT.txt").read_text()
    for name in ("starter-cards.pdf", "starter-backs.pdf", "starter-backs-light.pdf", "calibration.pdf",
                 "starter-pod-cards.pdf", "legend.png"):
        assert name in note and name in output
    assert "png/write-in-pawn.png" in note and "png/back-pawn.png" in note  # a folder of many: one summary line
    assert "dealer calibrate --profile letter-cut" in note and "borderless" in note
    listed = [line.strip() for line in note.splitlines() if line.startswith("  cards/")]
    assert listed and all((folder / line).is_file() for line in listed)
    plates = [line.strip() for line in note.splitlines() if line.startswith("  plates-50mm/plate-")]
    assert {p.rpartition(".")[0] for p in plates if p.endswith(".stl")} == {
        p.rpartition(".")[0] for p in plates if p.endswith(".3mf")}  # each plate as an STL and a PrusaSlicer project
    assert plates and all((folder / line).is_file() for line in plates) and "plate-NN.3mf" in note
    assert not [p for p in folder.rglob(".*") if p.is_file()]  # no temporary files left behind


def test_users_own_pieces_print_with_catalogue(tmp_path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(
        '[[piece]]\nid = "frog"\nname = "Frog"\ngroup = "piece"\ncode = "FRG"\nbetza = "fmDfcA(1,5)"\n'
        'text = "Hops two squares forward; captures two squares diagonally forward; leaps (1,5)."\nsets = ["pond"]\n'
    )
    result = run("cards", "--set", "pond", "--catalogue", str(mine), "--pictures", "silhouette", "--out", str(tmp_path))
    assert result.exit_code == 0 and "pond-cards.pdf (2 pages)" in result.output
    with pdfplumber_open(tmp_path / "cards" / "pond-cards.pdf") as pdf:
        assert "Pond" in pdf.pages[0].extract_text() and "Frog" in pdf.pages[0].extract_text()


def test_too_long_rules_text_names_the_piece(tmp_path) -> None:
    mine = tmp_path / "long.toml"
    mine.write_text(
        '[[piece]]\nid = "chatty"\nname = "Chatty"\ngroup = "piece"\ncode = "CHT"\nbetza = "K"\n'
        f'text = "{"Moves one square in any direction. " * 20}"\nsets = ["talk"]\n'
    )
    result = run("cards", "--set", "talk", "--catalogue", str(mine), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    assert "piece 'chatty'" in result.output and "shorten it" in result.output
    assert not (tmp_path / "out" / "cards" / "talk-cards.pdf").exists()


def test_same_input_same_bytes(tmp_path) -> None:
    for folder in ("a", "b"):
        assert run("cards", "--group", "royal", "--pictures", "silhouette",
                   "--out", str(tmp_path / folder)).exit_code == 0
    first, second = ((tmp_path / f / "cards" / "starter-royal-cards.pdf").read_bytes() for f in ("a", "b"))
    assert first == second


def test_blanks_light_backs_and_a_calibration_per_profile(tmp_path) -> None:
    result = run("cards", "--group", "royal", "--blanks", "2", "--pictures", "silhouette", "--out", str(tmp_path))
    # 7 + 2 blanks, 7 more; legend
    assert result.exit_code == 0 and "starter-royal-cards.pdf (3 pages)" in result.output
    result = run("backs", "--group", "royal", "--blanks", "2", "--back-style", "light", "--out", str(tmp_path))
    assert result.exit_code == 0 and "starter-royal-backs-light.pdf (2 pages)" in result.output
    backs = PdfReader(tmp_path / "cards" / "starter-royal-backs-light.pdf")
    assert backs.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"
    result = run("calibrate", "--profile", "a4-cut", "--duplex", "short", "--out", str(tmp_path))
    assert result.exit_code == 0 and "calibration-a4-cut.pdf" in result.output
    text = " ".join(PdfReader(tmp_path / "cards" / "calibration-a4-cut.pdf").pages[0].extract_text().split())
    assert "dealer backs --profile a4-cut --duplex short --back-offset X,Y" in text
    assert run("backs", "--back-style", "dark", "--out", str(tmp_path)).exit_code == 2
    assert run("cards", "--blanks", "-1", "--out", str(tmp_path)).exit_code == 2


def test_calibrate_refuses_a_single_card_page_in_one_line(tmp_path) -> None:
    result = run("calibrate", "--profile", "pod", "--out", str(tmp_path))
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1
    assert "needs a full sheet of paper" in result.output


def test_one_card_for_a_print_shop_as_pdf_with_trim_and_bleed_boxes(tmp_path) -> None:
    result = run("diagram", "knight", "--card", "--bleed", "--format", "pdf", "--pictures", "silhouette",
                 "--out", str(tmp_path))
    assert result.exit_code == 0
    page = PdfReader(tmp_path / "cards" / "knight-card-bleed.pdf").pages[0]
    media, trim = [float(v) for v in page.mediabox], [float(v) for v in page.trimbox]
    assert media == [0, 0, 324, 216] and trim == [9, 9, 315, 207]
    assert [float(v) for v in page.bleedbox] == media


def test_cards_render_their_pictures_first_on_every_core_and_reuse_them(tmp_path):
    result = run("cards", "--piece", "wazir", "--piece", "ferz", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    cache = sorted(path.name.split("-")[0] for path in (tmp_path / "render-cache").glob("*.png"))
    assert cache == ["ferz", "wazir"]  # rendered before the pages, one per piece
    stamps = {path: path.stat().st_mtime_ns for path in (tmp_path / "render-cache").glob("*.png")}
    assert run("cards", "--piece", "wazir", "--piece", "ferz", "--out", str(tmp_path)).exit_code == 0
    assert {path: path.stat().st_mtime_ns for path in (tmp_path / "render-cache").glob("*.png")} == stamps  # reused
    assert run("cards", "--piece", "wazir", "--pictures", "silhouette", "--out", str(tmp_path / "s")).exit_code == 0
    assert not (tmp_path / "s" / "render-cache").exists()  # silhouettes render nothing
