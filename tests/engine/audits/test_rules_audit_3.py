"""The referee items of the third rules audit (../shared/findings/rules-audit-3.md, issue 32 item 6): impossible
pawn placements and counts (W1), castling rights whose royal or partner is off its square (W2) and en-passant
fields whose pawn could not have come from there on 12x12 (W1), run as the audit ran them, against
python-chess and Fairy-Stockfish where they judge the same thing, and against every position the project
itself produces. The flag fall against two bare Consuls kings (W3) is tested with the other flag falls in
tests/engine/test_session.py (test_a_flag_fall_against_a_side_that_can_never_mate_is_a_draw)."""

from __future__ import annotations

import dataclasses
import random

import chess
import pyffish
import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.dealing.arrangement import arrange
from dealers_chess.engine.dealing.deal import deal, deck_for, load_procedures
from dealers_chess.engine.dealing.deal_file import DealtGame
from dealers_chess.engine.dealing.deck import Deck, starter_deck
from dealers_chess.engine.dealing.start import starting_fen
from dealers_chess.engine.errors import NotationError
from dealers_chess.engine.game import builtin_games, default_catalogue
from dealers_chess.engine.move import Kind
from dealers_chess.engine.notation import format_fen, format_move, parse_fen
from dealers_chess.engine.rules import legal_moves
from dealers_chess.pieces.catalogue import Catalogue, Group

CATALOGUE = default_catalogue()
SPEAR = dataclasses.replace(CATALOGUE.get("standard-pawn"), id="test-spear", code="TSA", group=Group.SPEAR)
WITH_SPEARS = Catalogue([*CATALOGUE, SPEAR])


def refused(game: str, fen: str) -> str:
    """The one-line error of `dealer moves GAME --fen FEN`, which names the FEN."""
    result = CliRunner().invoke(cli, ["moves", game, "--fen", fen])
    assert result.exit_code == 1 and len(result.output.strip().splitlines()) == 1, result.output
    assert fen in result.output
    return result.output.strip()


def reads(game: str, fen: str, catalogue: Catalogue | None = None) -> bool:
    try:
        parse_fen(fen, game, catalogue)
    except NotationError:
        return False
    return True


# --- W1: pawns where no move of their type brings them, and more pawns than a side starts with -------------


@pytest.mark.parametrize("game, fen, words", [
    # the audit's commands
    ("chess", "4k3/8/8/8/8/8/8/4K2P w - - 0 1", "white's Standard Pawn on h1 cannot have got there"),
    ("chess", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "white has 9 pawns; in Chess a side has at most 8"),
    ("chess", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "white's Standard Pawn on a8 stands where it must have promoted"),
    # Black's pawns the other way round
    ("chess", "4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "black's Standard Pawn on h8 cannot have got there"),
    ("chess", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "it promotes on arriving on rank 1"),
    # a set-up row below the pawn row: Constable-Spiel's and Spinal Tap's pawns start on rank 3
    ("constable-spiel", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "Standard Pawn on e2 cannot have got there"),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/(CR)10/5K5 w - - 0 1", "Crab on a2 cannot have got there"),
    ("wad-chess", "4k5/10/10/10/10/P9/PPPPPPPPPP/4K5 w - - 0 1", "white has 11 pawns; in WAD Chess a side has at most"),
    # the simplified game's hand is never used up: with a piece in it, a pawn on the last rank has promoted
    ("dealers-simplified", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1 hand=Q", "must have promoted"),
    # a Horse Pawn (ffN) leaps two ranks at a time: from rank 2 it reaches ranks 4 and 6 only
    ("chess", "4k3/8/8/8/8/4(HP)3/8/4K3 w - - 0 1", "Horse Pawn on e3 cannot have got there"),
])
def test_impossible_pawns_are_refused_in_one_line(game, fen, words):
    assert words in refused(game, fen)


@pytest.mark.parametrize("game, fen, why", [
    ("chess", "4k3/8/8/8/8/8/8/4K2(FP) w - - 0 1", "a Fish Pawn steps back"),
    ("chess", "4k3/8/8/8/4(HP)3/8/8/4K3 w - - 0 1", "a Horse Pawn leaps from e2 to e4... by d2-e4"),
    ("chess", "4k3/8/8/8/8/8/(lb)7/4K2P w - - 0 1", "Black's Linebacker pushed the pawn back from h2"),
    ("dealers-8x8", "4k3/8/8/8/8/8/8/4K2P w - - 0 1", "an enemy Linebacker, dealt and gone since, pushed it"),
    ("dealers-8x8", "4k3/8/8/8/8/4(HP)3/8/4K3 w - - 0 1", "pushed back from e4"),
    ("dealers-8x8", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1 hand=Q", "the hand may have been empty when it arrived"),
    ("dealers-simplified", "P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "an empty hand: nothing to promote to"),
    ("dealers-simplified", "(ZO)3k3/8/8/8/8/8/8/4K3 w - - 0 1 hand=Q", "a promoting pawn that took a Zombie there"),
    ("consuls", "1k2k3/8/8/8/8/8/8/(CSP)K2K3 w - - 0 1", "a Consul's Pawn on rank 8 captures like a rook"),
    ("consuls", "(CSP)n1k1k2/8/8/8/8/8/8/1K2K3 w - - 0 1", "a Consul's Pawn never promotes"),
    ("spinal-tap", "(STP)4k5/11/11/11/11/11/11/11/11/11/5K5 w - - 0 1", "promotion is optional"),
    ("dealers-10x10", "4k5/10/10/10/10/10/10/10/4P5/4K5 w - - 0 1 pawnrank=3", "pushed back from the pawn row"),
])
def test_pawns_that_some_move_brings_there_are_read(game, fen, why):
    assert reads(game, fen), why


def test_pawn_counts_allow_for_zombies_promotions_and_a_spear_row():
    eight = "PPPPPPPP"
    assert reads("dealers-8x8", f"4k3/8/8/8/8/(ZO)(ZO)6/{eight}/4K3 w - - 0 1")  # two pieces that took Zombies
    assert not reads("dealers-8x8", f"4k3/8/8/8/8/P7/{eight}/4K3 w - - 0 1")
    assert reads("dealers-8x8", f"4k3/8/8/8/8/P7/{eight}/4K3 w - - 0 1 hand=P")  # a pawn in hand, promoted to
    spears, pawns = "(TSA)" * 12, "P" * 12
    fen = f"6k5/12/12/12/12/12/12/12/{pawns}/{spears}/12/6K5 w - - 0 1"  # a 12x12 deal with a spear row
    assert reads("dealers-12x12", fen, WITH_SPEARS)
    with pytest.raises(NotationError, match="white has 13 spears; in Dealer's Chess 12x12 a side has at most 12"):
        parse_fen(fen.replace("/12/6K5", "/(TSA)11/6K5"), "dealers-12x12", WITH_SPEARS)


PAWN_STATUS = chess.STATUS_PAWNS_ON_BACKRANK | chess.STATUS_TOO_MANY_WHITE_PAWNS | chess.STATUS_TOO_MANY_BLACK_PAWNS


def test_chess_pawn_placements_and_counts_agree_with_python_chess():
    """Random positions with 0 to 10 pawns a side anywhere: refused exactly when python-chess reports pawns on
    the first or last rank or more than eight pawns (positions python-chess finds wrong otherwise are skipped)."""
    rng, compared, refusals = random.Random(32), 0, 0
    while compared < 400:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 24)
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        for colour in chess.COLORS:
            for _ in range(rng.randint(0, 10)):
                board.set_piece_at(squares.pop(), chess.Piece(chess.PAWN, colour))
            if rng.random() < 0.5:
                board.set_piece_at(squares.pop(), chess.Piece(rng.choice([chess.KNIGHT, chess.ROOK]), colour))
        board.turn = rng.choice(chess.COLORS)
        status = board.status()
        if status & ~PAWN_STATUS:
            continue  # kings touching, the side not to move in check...
        compared += 1
        refusals += bool(status)
        assert reads("chess", board.fen()) == (status == chess.STATUS_VALID), (board.fen(), status)
    assert refusals > 100


# --- W2: castling rights whose royal or partner is off its square --------------------------------------------


def test_the_audit_castling_right_with_the_king_off_e1_is_refused():
    assert "the white royal that castles with h1 starts on e1" in refused("chess", "4k3/8/8/8/8/8/8/3K3R w K - 0 1")


@pytest.mark.parametrize("game, fen, ok", [
    ("chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", True),
    ("chess", "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1", False),  # a rook off its corner
    ("chess", "r3k3/8/8/8/8/8/8/4K3 w q - 0 1", True),
    ("chess", "r2k4/8/8/8/8/8/8/4K3 w q - 0 1", False),
    ("wad-chess", "5k4/10/10/10/10/10/10/5K3R w K - 0 1", True),  # WAD's king starts on f1
    ("wad-chess", "5k4/10/10/10/10/10/10/4K4R w K - 0 1", False),
    ("dealers-8x8", "4(sg)3/8/8/8/8/8/8/R3(PR)2R w KQ - 0 1", True),  # any corner piece castles with the royal on e1
    ("dealers-8x8", "4(sg)3/8/8/8/8/8/8/(CA)2(PR)3(GU) w KQ - 0 1", False),
    ("dealers-12x12", "6(sg)5/12/12/12/12/12/12/12/12/12/12/R5(PR)4N w KQ - 0 1", True),  # 12x12: royal on g1
    ("dealers-12x12", "6(sg)5/12/12/12/12/12/12/12/12/12/12/R4(PR)5N w KQ - 0 1", False),
    ("consuls", "r2kk2r/8/8/8/8/8/8/R2KK2R w KQkq - 0 1", True),
    ("consuls", "r2kk2r/8/8/8/8/8/8/R1K1K2R w Q - 0 1", False),  # the king that castles with a1 starts on d1
    # reached in play: the d1 king walked to f1 while the e1 king and the h1 rook stayed at home
    ("consuls", "r2kk2r/8/8/8/8/8/8/R3KK1R w K - 0 1", True),
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/1(SQR)3K5 w B - 0 1", True),  # squires castle with f1
    ("spinal-tap", "5k5/11/11/11/11/11/11/11/11/11/1(SQR)2K6 w B - 0 1", False),
])
def test_castling_rights_need_royal_and_partner_on_their_start_squares(game, fen, ok):
    assert reads(game, fen) == ok


@pytest.mark.parametrize("fen", ["r2kk2r/8/8/8/8/8/8/R3KK1R w K - 0 1", "r2kk2r/8/8/8/8/8/8/R3K1KR w K - 0 1"])
def test_a_consuls_king_that_walked_next_to_the_rook_castles_with_nothing(fen):
    """The d1 king walked to f1 or g1 while the e1 king and the h1 rook stayed home: the right stays, and it is
    the e1 king's, which cannot pass the other king. The nearer king used to castle (f1g1/h1, even g1g1)."""
    pos = parse_fen(fen, "consuls")
    assert [m for m in legal_moves(pos) if m.kind is Kind.CASTLE] == []
    start = parse_fen("r2kk2r/8/8/8/8/8/8/R2KK2R w KQkq - 0 1", "consuls")
    assert {format_move(start, m) for m in legal_moves(start) if m.kind is Kind.CASTLE} == {"d1b1", "e1g1"}


def test_chess_castling_rights_agree_with_python_chess_and_fairy_stockfish():
    """Kings and rooks on random back-rank squares with random rights (KQkq): refused exactly when python-chess
    reports bad castling rights and Fairy-Stockfish refuses the castling field."""
    rng, compared, refusals = random.Random(32), 0, 0
    while compared < 300:
        board = chess.Board(None)
        for colour, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
            files = rng.sample(range(8), 3) if rng.random() < 0.7 else [4, 0, 7]
            board.set_piece_at(chess.square(files[0], rank), chess.Piece(chess.KING, colour))
            for file in files[1:]:
                board.set_piece_at(chess.square(file, rank), chess.Piece(chess.ROOK, colour))
        rights = "".join(c for c in "KQkq" if rng.random() < 0.5) or "-"
        fen = f"{board.board_fen()} w {rights} - 0 1"
        status = chess.Board(fen).status()
        if status & ~chess.STATUS_BAD_CASTLING_RIGHTS:
            continue  # the side not to move in check
        compared += 1
        bad = bool(status)
        refusals += bad
        assert reads("chess", fen) != bad, (fen, status)
        assert (pyffish.validate_fen(fen, "chess") == -5) == bad, fen  # -5: FEN_INVALID_CASTLING_INFO
    assert 50 < refusals < 250


# --- W1: an en-passant square whose pawn could not have come from there (12x12) -------------------------------


@pytest.mark.parametrize("game, fen, ok", [
    ("dealers-12x12", "6k5/12/12/12/12/12/12/12/4P7/12/12/6K5 b - e3 0 1", False),  # the audit's: pawns start on rank 3
    ("dealers-12x12", "6k5/12/12/12/12/12/12/4P7/12/12/12/6K5 b - e4 0 1", True),  # e3-e5
    ("dealers-12x12", "6k5/12/12/4p7/12/12/12/12/12/12/12/6K5 w - e10 0 1", False),  # Black's from e11
    ("dealers-12x12", "6k5/12/12/12/4p7/12/12/12/12/12/12/6K5 w - e9 0 1", True),  # e10-e8
    ("dealers-10x10", "4k5/10/10/10/10/10/4P5/10/10/4K5 b - e3 0 1 pawnrank=3", False),
    ("dealers-10x10", "4k5/10/10/10/10/4P5/10/10/10/4K5 b - e4 0 1 pawnrank=3", True),
    ("dealers-10x10", "4k5/10/10/10/10/10/4P5/10/10/4K5 b - e3 0 1", True),  # pawns on rank 2 here
    ("dealers-8x8", "4k3/8/8/8/3(MO)4/8/8/4K3 b - d2d3 0 1", False),  # the audit's Mongolian "d1-d4"
    ("dealers-8x8", "4k3/8/8/3(MO)4/8/8/8/4K3 b - d3d4 0 1", True),  # d2-d5
])
def test_en_passant_needs_a_move_from_where_the_pawn_could_stand_unmoved(game, fen, ok):
    assert reads(game, fen) == ok


def test_a_pawn_behind_its_pawn_row_has_moved():
    """On 12x12 a Fish Pawn that stepped back to e2 has no double step, and the FEN needs no `moved` for it;
    one on its pawn row has, and the en-passant square its double step leaves reads back."""
    behind = parse_fen("6k5/12/12/12/12/12/12/12/12/12/4(FP)7/6K5 w - - 0 1", "dealers-12x12")
    assert {format_move(behind, m) for m in legal_moves(behind) if m.frm == behind.board.parse_square("e2")} == {
        "e2e3", "e2e1"}
    assert format_fen(behind) == "6k5/12/12/12/12/12/12/12/12/12/4(FP)7/6K5 w - - 0 1"
    home = parse_fen("6k5/12/12/12/12/12/12/12/12/4(FP)7/12/6K5 w - - 0 1", "dealers-12x12")
    double = next(m for m in legal_moves(home) if format_move(home, m) == "e3e5")
    home.push(double)
    assert format_fen(parse_fen(format_fen(home), "dealers-12x12")) == format_fen(home)
    assert " b - e4 " in format_fen(home)


# --- the project's own positions are never refused --------------------------------------------------------------


def test_every_game_start_reads():
    for game in builtin_games().values():
        assert format_fen(parse_fen(game.start, game)) == game.start, game.id


@pytest.mark.parametrize("procedure", load_procedures(), ids=lambda p: f"{p.board_name}-{p.extra_row.value}")
def test_every_deal_and_the_positions_played_from_it_read_back(procedure):
    """Each set-up procedure (spear rows from a deck with spears), two seeds, 40 random plies each: every FEN
    reads back as itself."""
    deck = starter_deck(WITH_SPEARS)
    deck = Deck("with spears", deck.royals, deck.pieces, deck.pawns, ("test-spear",) * 24)
    deck = deck_for(procedure, deck, default=True)
    for seed in (1, 2):
        the_deal = deal(procedure, deck, seed)
        white, black = (arrange(the_deal, side, WITH_SPEARS) for side in ("white", "black"))
        fen = starting_fen(DealtGame(the_deal, white, black, big_deck=seed == 2), WITH_SPEARS)
        pos = parse_fen(fen, procedure.game, WITH_SPEARS)
        rng = random.Random(seed)
        for _ in range(40):
            text = format_fen(pos)
            assert format_fen(parse_fen(text, pos.game, WITH_SPEARS)) == text
            moves = legal_moves(pos)
            if not moves:
                break
            pos.push(rng.choice(moves))
