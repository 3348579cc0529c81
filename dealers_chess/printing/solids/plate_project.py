"""PrusaSlicer projects of print plates: plate-NN.3mf, the plate's pieces with their filament changes built in.

The project is laid out as PrusaSlicer 2.5 writes its own (src/libslic3r/Format/3mf.cpp, `_3MF_Exporter`):
- `3D/3dmodel.model`: one object per piece on the plate, its mesh as built (centred on the origin, base
  at z 0), and one build item per object whose transform moves it to its place on the bed; the model
  carries `slic3rpe:Version3mf`, so PrusaSlicer keeps each piece where the item puts it instead of
  baking the move into the mesh (rotating a piece then turns it about its own axis);
- `Metadata/Slic3r_PE_model.config`: each object's name (the piece id) and its one part;
- `Metadata/Slic3r_PE.config`: the print settings that matter here, in PrusaSlicer's "; key = value"
  lines (read back to front up to the first line that is not one, so the header comes first): 0.2 mm
  layers and first layer (the layers plates.txt counts), the plate's bed, no supports;
- `Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml`: a colour change (type 0, ColorChange; G-code
  M600) at the print_z of each of the plate's change layers, bottom up (PrusaSlicer keeps its changes
  sorted by height and writes one `code` element each), in single-extruder mode; each names the colour
  it loads: the side's accent, then its body colour again (a horse head over the diagram). PrusaSlicer
  emits each after moving to its layer and before printing it (`ToolOrdering::assign_custom_gcodes` gives
  it the layer whose print_z is the first at or above it). A one-colour plate has no such file.

One object per piece rather than one object of many bodies: PrusaSlicer then lists the pieces by
name, moves, turns or deletes each alone and re-arranges the plate without splitting it first.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree
from xml.sax.saxutils import quoteattr

import numpy as np

from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.render import PALETTES
from dealers_chess.printing.files import write_atomic
from dealers_chess.printing.solids.fdm import load_fdm_settings
from dealers_chess.printing.solids.mesh_check import check_mesh

MODEL_FILE = "3D/3dmodel.model"
MODEL_CONFIG_FILE = "Metadata/Slic3r_PE_model.config"
PRINT_CONFIG_FILE = "Metadata/Slic3r_PE.config"
CUSTOM_GCODE_FILE = "Metadata/Prusa_Slicer_custom_gcode_per_print_z.xml"
COLOR_CHANGE = 0  # CustomGCode::Type::ColorChange (src/libslic3r/CustomGCode.hpp)
COLOR_CHANGE_GCODE = "M600"
SINGLE_EXTRUDER = "SingleExtruder"  # CustomGCode::SingleExtruderMode: one nozzle, the change by hand
CORE = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # the same plate gives the same bytes
# Printer and filament settings of the project besides those of assets/printer/fdm.toml: a 0.4 mm nozzle on
# Marlin-style firmware (which knows M600), PLA, a skirt close enough to stay on the bed (pieces keep 10 mm
# from its edges), the seams at the back of the bed (the side a piece's forward notch faces: its owner
# never sees them), and against strings between the diagram's islands: no travel across perimeters and
# at least 15 s a layer, so the small accent layers cool.
PROJECT_SETTINGS = {
    "printer_technology": "FFF",
    "gcode_flavor": "marlin2",
    "nozzle_diameter": "0.4",
    "filament_type": "PLA",
    "temperature": "210",
    "first_layer_temperature": "215",
    "bed_temperature": "60",
    "first_layer_bed_temperature": "60",
    "support_material": "0",
    "skirt_distance": "2",
    "seam_position": "rear",
    "avoid_crossing_perimeters": "1",
    "slowdown_below_layer_time": "15",
    "color_change_gcode": COLOR_CHANGE_GCODE,
}


class PlateProjectError(DealerError):
    """A plate that would not make a valid PrusaSlicer project."""


@dataclass(frozen=True, slots=True)
class ProjectPiece:
    """One piece in a project: its name, its mesh (centred on the origin, base at z 0) and its place on the bed."""

    name: str
    vertices: np.ndarray
    faces: np.ndarray
    x_mm: float
    y_mm: float


@dataclass(frozen=True, slots=True)
class ProjectContents:
    """A plate project as read back: the pieces' names and places, the colour changes' heights and the colours
    they load (bottom up), the settings."""

    pieces: tuple[tuple[str, float, float], ...]
    colour_changes_mm: tuple[float, ...]
    change_colours: tuple[str, ...]
    settings: dict[str, str]


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(channel * 255):02X}" for channel in rgb)


def accent_hex(side: str) -> str:
    """The second filament's colour on a side's pieces, as the renders draw it (#RRGGBB)."""
    return _hex(PALETTES[side].accent)


def body_hex(side: str) -> str:
    """The body filament's colour on a side's pieces, as the renders draw it (#RRGGBB)."""
    return _hex(PALETTES[side].body)


def change_colours(count: int, side: str) -> tuple[str, ...]:
    """The colour each of a plate's changes loads, bottom up: the accent, then the body's again, and so on."""
    filaments = (accent_hex(side), body_hex(side))
    return tuple(filaments[index % 2] for index in range(count))


def write_plate_project(
    path: str | Path, pieces: Sequence[ProjectPiece], changes_mm: Sequence[float], bed_mm: tuple[float, float],
    side: str = "white",
) -> ProjectContents:
    """Write a plate's PrusaSlicer project atomically, with an M600 at each of changes_mm (bottom up; none
    for a one-colour plate) previewed in `side`'s colours, or PlateProjectError and no file.

    Every piece's mesh is checked as one closed solid in the float32 numbers the file holds (written with 9
    significant digits, which read back as exactly those numbers); the file is read back and must hold
    exactly the bytes meant (the zip's checksums verified), so the check holds for what is on disk.
    """
    if not pieces:
        raise PlateProjectError(f"{path}: a plate project needs at least one piece")
    changes_mm = tuple(float(z_mm) for z_mm in changes_mm)
    if any(high <= low for low, high in zip(changes_mm, changes_mm[1:], strict=False)):
        raise PlateProjectError(f"{path}: colour changes at z {changes_mm} mm do not rise one above the other")
    meshes = [(piece.name, np.asarray(piece.vertices, dtype=np.float32), np.asarray(piece.faces)) for piece in pieces]
    checked: set[bytes] = set()  # copies of a piece are checked once
    for name, vertices, faces in meshes:
        _check_solid(path, name, vertices, faces, checked)
    files = {
        "[Content_Types].xml": _CONTENT_TYPES,
        "_rels/.rels": _RELATIONSHIPS,
        MODEL_FILE: _model_xml(pieces, [vertices for _, vertices, _ in meshes]),
        MODEL_CONFIG_FILE: _model_config_xml(pieces),
        PRINT_CONFIG_FILE: _print_config(bed_mm),
    }
    colours = change_colours(len(changes_mm), side)
    if changes_mm:
        files[CUSTOM_GCODE_FILE] = custom_gcode_xml(list(zip(changes_mm, colours, strict=True)))
    payloads = {name: text.encode("utf-8") for name, text in files.items()}
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        for name, payload in payloads.items():
            archive.writestr(zipfile.ZipInfo(name, _ZIP_TIME), payload, zipfile.ZIP_DEFLATED, compresslevel=1)

    def validate(written: Path) -> None:
        try:
            with zipfile.ZipFile(written) as archive:
                same = archive.namelist() == list(payloads) and all(
                    archive.read(name) == payload for name, payload in payloads.items())
        except (OSError, zipfile.BadZipFile) as error:
            raise PlateProjectError(f"{path}: not readable after writing ({error})") from None
        if not same:
            raise PlateProjectError(f"{path}: read back other contents than were written")

    write_atomic(path, data.getvalue(), check=validate)
    placed = tuple((p.name, p.x_mm, p.y_mm) for p in pieces)
    return ProjectContents(placed, changes_mm, colours, project_settings(bed_mm))


def custom_gcode_xml(changes: Sequence[tuple[float, str]]) -> str:
    """PrusaSlicer 2.5's custom G-code file with a colour change at each (print_z, colour), bottom up
    (`_add_custom_gcode_per_print_z_file_to_archive`: a `code` element each, then the mode; boost's
    write_xml, then a line break between every two tags)."""
    codes = "".join(f'<code print_z="{print_z_mm:g}" type="{COLOR_CHANGE}" extruder="1" color="{colour}" extra="" '
                    f'gcode="{COLOR_CHANGE_GCODE}"/>\n' for print_z_mm, colour in changes)
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<custom_gcodes_per_print_z>\n{codes}'
            f'<mode value="{SINGLE_EXTRUDER}"/>\n</custom_gcodes_per_print_z>')


def project_settings(bed_mm: tuple[float, float]) -> dict[str, str]:
    """The settings a plate project carries: fdm.toml's layers, walls and infill, the bed, PROJECT_SETTINGS."""
    fdm = load_fdm_settings()
    width, depth = (f"{side:g}" for side in bed_mm)
    return {
        "layer_height": f"{fdm.layer_mm:g}", "first_layer_height": f"{fdm.layer_mm:g}",
        "perimeters": str(fdm.perimeters), "top_solid_layers": str(fdm.top_layers),
        "bottom_solid_layers": str(fdm.bottom_layers), "fill_density": f"{fdm.infill_percent:g}%",
        "filament_density": f"{fdm.density_g_cm3:g}",
        "bed_shape": f"0x0,{width}x0,{width}x{depth},0x{depth}",
        **PROJECT_SETTINGS,
    }


def _print_config(bed_mm: tuple[float, float]) -> str:
    """Slic3r_PE.config: a header line, then '; key = value' lines (PrusaSlicer reads them from the end up)."""
    lines = [f"; {key} = {value}" for key, value in sorted(project_settings(bed_mm).items())]
    header = "; generated by the Dealer's Chess toolkit: a print plate with its filament changes"
    return header + "\n\n" + "\n".join(lines) + "\n"


_VERTEX = '     <vertex x="%.9g" y="%.9g" z="%.9g"/>\n'
_TRIANGLE = '     <triangle v1="%d" v2="%d" v3="%d"/>\n'


def _model_xml(pieces: Sequence[ProjectPiece], vertices_of: Sequence[np.ndarray]) -> str:
    """The model: each piece's float32 vertices with 9 significant digits (they read back exactly)."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>\n',
        f'<model unit="millimeter" xml:lang="en-US" xmlns="{CORE}" xmlns:slic3rpe="http://schemas.slic3r.org/3mf/2017/06">\n',
        ' <metadata name="slic3rpe:Version3mf">1</metadata>\n',
        ' <resources>\n',
    ]
    for number, (piece, float32) in enumerate(zip(pieces, vertices_of, strict=True), start=1):
        out.append(f'  <object id="{number}" type="model">\n   <mesh>\n    <vertices>\n')
        faces = np.asarray(piece.faces)
        out.append(_VERTEX * len(float32) % tuple(float32.ravel().tolist()))  # half the time of a line at a time
        out.append('    </vertices>\n    <triangles>\n')
        out.append(_TRIANGLE * len(faces) % tuple(faces.ravel().tolist()))
        out.append('    </triangles>\n   </mesh>\n  </object>\n')
    out.append(' </resources>\n <build>\n')
    out += [f'  <item objectid="{number}" transform="1 0 0 0 1 0 0 0 1 {p.x_mm:.9g} {p.y_mm:.9g} 0" printable="1"/>\n'
            for number, p in enumerate(pieces, start=1)]
    out.append(' </build>\n</model>\n')
    return "".join(out)


def _model_config_xml(pieces: Sequence[ProjectPiece]) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<config>\n']
    for number, piece in enumerate(pieces, start=1):
        name = quoteattr(piece.name)
        out += [
            f' <object id="{number}" instances_count="1">\n',
            f'  <metadata type="object" key="name" value={name}/>\n',
            f'  <volume firstid="0" lastid="{len(piece.faces) - 1}">\n',
            f'   <metadata type="volume" key="name" value={name}/>\n',
            '   <metadata type="volume" key="volume_type" value="ModelPart"/>\n',
            '  </volume>\n </object>\n',
        ]
    out.append('</config>\n')
    return "".join(out)


def read_plate_project(path: str | Path, check_solids: bool = False) -> ProjectContents:
    """A plate project's pieces (name, x, y: each build item's move), colour changes' heights and colours and
    settings;
    with check_solids each object's mesh must be one closed, consistently wound solid."""
    try:
        with zipfile.ZipFile(path) as archive:
            model = ElementTree.fromstring(archive.read(MODEL_FILE))
            config = ElementTree.fromstring(archive.read(MODEL_CONFIG_FILE))
            settings_text = archive.read(PRINT_CONFIG_FILE).decode("utf-8")
            names = set(archive.namelist())
            gcodes = ElementTree.fromstring(archive.read(CUSTOM_GCODE_FILE)) if CUSTOM_GCODE_FILE in names else None
    except (OSError, KeyError, zipfile.BadZipFile, ElementTree.ParseError) as error:
        raise PlateProjectError(f"{path}: not a readable plate project ({error})") from None
    object_names = {
        obj.get("id"): meta.get("value", "")
        for obj in config.iter("object") for meta in obj.iter("metadata")
        if meta.get("type") == "object" and meta.get("key") == "name"
    }
    objects = {obj.get("id"): obj for obj in model.iter(f"{{{CORE}}}object")}
    pieces = []
    checked: set[bytes] = set()  # the meshes found solid: copies of a piece are checked once
    for item in model.iter(f"{{{CORE}}}item"):
        object_id = item.get("objectid")
        matrix = [float(v) for v in (item.get("transform") or "").split()]
        if object_id not in objects or len(matrix) != 12:
            raise PlateProjectError(f"{path}: build item of object {object_id} has no object or no move")
        if check_solids:
            obj = objects[object_id]
            vertices = np.array([[float(v.get(axis, "nan")) for axis in "xyz"] for v in obj.iter(f"{{{CORE}}}vertex")],
                                dtype=np.float32)
            faces = np.array([[int(t.get(k, "-1")) for k in ("v1", "v2", "v3")]
                              for t in obj.iter(f"{{{CORE}}}triangle")], dtype=np.int64)
            _check_solid(path, object_names.get(object_id) or "?", vertices, faces, checked)
        pieces.append((object_names.get(object_id) or "", matrix[9], matrix[10]))
    codes = [] if gcodes is None else [code for code in gcodes.iter("code") if code.get("type") == str(COLOR_CHANGE)]
    settings = dict(
        line[2:].split(" = ", 1) for line in settings_text.splitlines() if line.startswith("; ") and " = " in line)
    return ProjectContents(tuple(pieces), tuple(float(code.get("print_z", "nan")) for code in codes),
                           tuple(code.get("color", "") for code in codes), settings)


def _check_solid(path: str | Path, name: str, vertices: np.ndarray, faces: np.ndarray, checked: set[bytes]) -> None:
    """One closed, consistently wound solid in these float32 vertices, or PlateProjectError naming the piece."""
    if len(vertices) == 0 or len(faces) == 0 or faces.min() < 0 or faces.max() >= len(vertices):
        raise PlateProjectError(f"{path}: piece {name!r} has no mesh or a triangle names a missing vertex")
    key = vertices.tobytes() + faces.tobytes()
    if key in checked:
        return
    problems = check_mesh(vertices, faces).problems(1)
    if problems:
        raise PlateProjectError(f"{path}: piece {name!r} is not a valid solid as written: {'; '.join(problems)}")
    checked.add(key)


_CONTENT_TYPES = """\
<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
 <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
 <Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>
</Types>
"""
_RELATIONSHIPS = """\
<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
 <Relationship Target="/3D/3dmodel.model" Id="rel-1" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/>
</Relationships>
"""
