"""Palette drawing (render/draw/): every table is drawn straight onto palette indices, text in SHADES blends.

What this must keep: exact piece colours, text blended with whatever lies beneath it, layers (cached board faces,
chips, field tiles, legends) that paste the same colours into any table and leak nothing from one table into the
next, and the same bytes for the same view.
"""

from __future__ import annotations

import io
import json
import math
import random
from collections.abc import Callable
from typing import Any, cast

import pytest
from PIL import Image, ImageDraw

from render import draw as d
from render import keyflower, keyper, keythedral
from render.draw import fonts, png
from tests.render.golden_images import GOLDEN

RGB = tuple[int, int, int]


def golden_view(name: str) -> dict[str, Any]:
    """A stored golden input: the view (Keyper's file also holds its highlight)."""
    stored: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return stored


def render_golden(name: str) -> bytes:
    """Render a stored golden table with its game's renderer."""
    stored = golden_view(name)
    if name.startswith("keythedral"):
        return keythedral.render(stored)
    if name.startswith("keyflower"):
        return keyflower.render(stored)
    return keyper.render(stored["view"], highlight=stored["highlight"])


def colours_in(data: bytes) -> set[RGB]:
    """Every colour of a PNG's pixels."""
    return colours_of(Image.open(io.BytesIO(data)).convert("RGB"))


def colours_of(image: Image.Image) -> set[RGB]:
    """Every colour of an RGB image's pixels."""
    return {cast(RGB, colour) for _, colour in image.getcolors(1 << 16) or []}


def rgb(draw: d.Pen) -> Image.Image:
    """What a pen has drawn, as an RGB image."""
    return d.finished(draw).convert("RGB")


# --- Tables ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [
    ("autumn_4p_offer", "setup_2p"),
    ("keythedral_midgame_4p", "keythedral_setup_4p"),
    ("keyflower_autumn_4p", "keyflower_spring_3p"),
])
def test_cached_layers_leak_nothing_from_one_table_into_the_next(first: str, second: str) -> None:
    before = render_golden(first)
    other = render_golden(second)
    assert render_golden(first) == before
    assert other != before
    assert render_golden(second) == other


def named(kind: str, colours: dict[Any, RGB]) -> dict[str, RGB]:
    """Colours keyed '<kind> <name>'."""
    return {f"{kind} {name}": colour for name, colour in colours.items()}


PIECES: dict[str, Callable[[], dict[str, RGB]]] = {
    "autumn_4p_offer": lambda: {**named("keyple", d.KEYPLE_FILL), **named("resource", d.RESOURCE_FILL),
                                **named("season", d.SEASON_FILL), **named("area", d.AREA_FILL),
                                **named("seat", dict(enumerate(d.PLAYER_FILL)))},
    "keythedral_midgame_4p": lambda: {**named("player", keythedral.PLAYER_FILL), **named("cube", keythedral.CUBE_FILL),
                                      **named("terrain", keythedral.TERRAIN_FILL),
                                      "keythedral": keythedral.KEYTHEDRAL_FILL},
    "keyflower_autumn_4p": lambda: {**named("keyple", keyflower.KEYPLE_FILL),
                                    **named("resource", keyflower.RESOURCE_FILL),
                                    **named("tile", {k: keyflower.KIND_FILL[k] for k in ("home", "spring", "summer",
                                                                                         "autumn")})},
}


@pytest.mark.parametrize("name", sorted(PIECES))
def test_every_piece_colour_is_in_the_image_exactly(name: str) -> None:
    """(The 256-colour palette taken from a sample of the RGB image used to shift many of these a little.)"""
    have = colours_in(render_golden(name))
    missing = {what: colour for what, colour in PIECES[name]().items() if colour not in have}
    assert not missing


# --- Text --------------------------------------------------------------------------------------------------


def composite(back: Image.Image, xy: tuple[int, int], line: str, size: int, ink: RGB) -> Image.Image:
    """The exact anti-aliased line over an RGB image, placed as d.text places it: what the palette approximates."""
    dx, dy = fonts._offset(line, size, "la")
    coverage = Image.new("L", back.size, 0)
    coverage.paste(fonts._mask(line, size, False), (xy[0] + dx, xy[1] + dy))
    out = back.copy()
    out.paste(Image.new("RGB", out.size, ink), (0, 0), coverage)
    return out


@pytest.mark.parametrize("split", [False, True])
def test_text_is_ink_blended_with_each_colour_beneath_it(split: bool) -> None:
    size, line = (160, 40), "Keywood table"
    left, right, ink = (250, 240, 220), (30, 90, 200), (200, 30, 45)
    _, draw = d.canvas(*size, left)
    reference = Image.new("RGB", size, left)
    if split:  # the line straddles two fills and the edge of the canvas
        draw.rectangle((60, 0, 160, 40), fill=right)
        ImageDraw.Draw(reference).rectangle((60, 0, 160, 40), fill=right)
    d.text(draw, (-4, 8), line, 22, ink)
    exact = composite(reference, (-4, 8), line, 22, ink)
    drawn = rgb(draw)
    worst = max(abs(a - b) for p, q in zip(drawn.get_flattened_data(), exact.get_flattened_data(), strict=True)
                for a, b in zip(p, q, strict=True))
    assert worst <= 255 // (2 * d.SHADES) + 2  # coverage rounded to the nearest step
    assert drawn.tobytes() != reference.tobytes()
    assert ink in colours_of(drawn)


def test_flat_colours_keep_their_own_entries_when_text_blends_fill_the_palette() -> None:
    rng = random.Random(5)
    backs = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(15)]
    inks = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(10)]
    _, draw = d.canvas(1500, 460)
    for i, back in enumerate(backs):  # 150 backgrounds-and-inks: more blends than the palette holds
        draw.rectangle((i * 100, 0, i * 100 + 99, 399), fill=back)
        for j, ink in enumerate(inks):
            d.text(draw, (i * 100 + 4, j * 40 + 8), "Ab", 20, ink)
    flat = len(backs) + len(inks) + 1
    assert 256 - d.TEXT_RESERVE <= len(draw.colours.rgb) <= 256 - d.TEXT_RESERVE + flat  # blends stopped short
    late = [(1, 2, 3 + i) for i in range(10)]
    for i, colour in enumerate(late):
        draw.rectangle((i * 20, 420, i * 20 + 19, 459), fill=colour)
    assert set(late) <= colours_of(rgb(draw))


def test_past_256_colours_a_fill_takes_the_nearest_colour_there() -> None:
    _, draw = d.canvas(300, 10, (0, 0, 0))
    wanted = [(i % 256, 255 - i % 256, 100 if i < 256 else 104) for i in range(300)]
    for i, colour in enumerate(wanted):
        draw.point((i, 0), fill=colour)
    out = rgb(draw)
    assert len(draw.colours.rgb) == 256
    for i, colour in enumerate(wanted):
        got = cast(RGB, out.getpixel((i, 0)))
        assert got == colour if i < 255 else max(abs(a - b) for a, b in zip(got, colour, strict=True)) <= 4


def test_a_text_blend_takes_a_colour_already_in_its_box() -> None:
    palette = d.Palette()
    back, ink = palette.getcolor((255, 255, 255)), (0, 0, 0)
    near = palette.getcolor((186, 190, 185))  # in the 8x8x8 box of the 1/4 blend, (191, 191, 191)
    ramp = palette.ramp(back, ink)
    assert ramp[1] == near
    assert [palette.rgb[i] for i in ramp[2:4]] == [(128, 128, 128), (64, 64, 64)]  # new entries, exact
    assert ramp[0] == back and palette.rgb[ramp[4]] == ink


def test_nearest_is_the_nearest_of_all_colours() -> None:
    rng = random.Random(2)
    for count in (3, 40, 256):
        palette = d.Palette()
        for _ in range(count):
            palette.getcolor((rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        for _ in range(300):
            want = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
            brute = min(range(len(palette.rgb)), key=lambda i: (sum((a - b) ** 2 for a, b in zip(palette.rgb[i], want,
                                                                                                strict=True)), i))
            assert palette.nearest(want) == brute


# --- Layers and outlines -----------------------------------------------------------------------------------


def test_a_pasted_layer_keeps_its_colours_in_any_palette() -> None:
    _, pen = d.canvas(40, 20, (10, 20, 30))
    pen.rectangle((0, 0, 19, 19), fill=(200, 0, 0))
    d.text(pen, (22, 2), "x", 14, (0, 200, 0))
    part = d.layer(pen)
    _, draw = d.canvas(100, 40, (255, 255, 255))
    draw.rectangle((0, 0, 99, 9), fill=(0, 200, 0))  # the canvas's palette is in another order
    d.paste(draw, part, (50, 15))
    assert rgb(draw).crop((50, 15, 90, 35)).tobytes() == d.finished(pen).convert("RGB").tobytes()


def test_a_layer_pasted_through_a_mask_leaves_the_rest() -> None:
    _, pen = d.canvas(20, 20, (200, 0, 0))
    mask = Image.new("L", (20, 20), 0)
    ImageDraw.Draw(mask).rectangle((5, 5, 14, 14), fill=255)
    _, draw = d.canvas(40, 40, (255, 255, 255))
    d.paste(draw, d.layer(pen), (10, 10), mask)
    out = rgb(draw)
    assert out.getpixel((20, 20)) == (200, 0, 0) and out.getpixel((12, 12)) == (255, 255, 255)


def test_outline_draws_pillows_thick_polygon_outline_on_a_crop() -> None:
    rng = random.Random(1)
    for _ in range(200):
        cx, cy, half = rng.uniform(-20, 220), rng.uniform(-20, 220), rng.uniform(3, 40)
        points = [(cx, cy - half), (cx + half, cy), (cx, cy + half), (cx - half, cy)]
        width = rng.choice([2, 3, 4, 6])
        _, whole = d.canvas(200, 200)
        _, cropped = d.canvas(200, 200)
        for pen in (whole, cropped):
            pen.rectangle((0, 0, 99, 199), fill=(10, 200, 30))
        whole.polygon(points, outline=d.HIGHLIGHT, width=width)
        d.outline(cropped, points, d.HIGHLIGHT, width)
        assert rgb(cropped).tobytes() == rgb(whole).tobytes(), (points, width)


def test_a_stamped_rounded_rectangle_is_pillows() -> None:
    rng = random.Random(3)
    for _ in range(400):
        x0, y0 = rng.choice([rng.randrange(0, 150), rng.randrange(0, 300) / 2, rng.uniform(0, 150)]), rng.uniform(0, 60)
        box = (x0, y0, x0 + rng.choice([rng.randrange(0, 80), rng.uniform(0, 80)]), y0 + rng.uniform(0, 60))
        radius = rng.choice([0, 3, 4.5, 8, 12, 40])
        fill, outline = rng.choice([(d.PANEL, d.GRID), (d.PANEL, None), (None, d.INK), (d.INK, d.INK)])
        width = rng.choice([1, 2, 3, 5])
        corners = rng.choice([None, (True, True, False, False), (False, True, True, False)])
        _, stamped = d.canvas(240, 130)
        _, direct = d.canvas(240, 130)
        try:
            ImageDraw.ImageDraw.rounded_rectangle(direct, box, radius, fill, outline, width, corners=corners)
        except ValueError:  # Pillow refuses some thin shapes with corners left out; so must the stamp
            with pytest.raises(ValueError):
                stamped.rounded_rectangle(box, radius, fill, outline, width, corners=corners)
            continue
        stamped.rounded_rectangle(box, radius, fill, outline, width, corners=corners)
        assert rgb(stamped).tobytes() == rgb(direct).tobytes(), (box, radius, fill, outline, width, corners)


# --- Encoding ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "colours"), [((1, 1), 17), ((7, 3), 40), ((333, 41), 256), ((64, 9), 5)])
def test_the_png_writer_gives_back_every_index_and_colour(size: tuple[int, int], colours: int) -> None:
    """(Palettes of 16 colours or fewer go through Pillow, which packs them in fewer bits.)"""
    rng = random.Random(colours)
    image = Image.new("P", size)
    image.putdata([rng.randrange(colours) for _ in range(size[0] * size[1])])
    palette = [rng.randrange(256) for _ in range(3 * colours)]
    image.putpalette(palette)
    decoded = Image.open(io.BytesIO(d.to_png(image)))
    decoded.load()
    assert decoded.mode == "P" and decoded.size == size
    assert decoded.tobytes() == image.tobytes()
    assert decoded.getpalette() == palette


def test_a_table_png_decodes_to_its_drawing() -> None:
    _, draw = d.canvas(301, 97)
    for i in range(60):
        draw.rectangle((i * 5, i % 40, i * 5 + 4, 96 - i % 40), fill=(i * 4, 255 - i * 4, 128))
    d.text(draw, (10, 40), "Keywood", 30, d.INK, bold=True)
    image = d.finished(draw)
    decoded = Image.open(io.BytesIO(d.to_png(image)))
    decoded.verify()  # chunk lengths and CRCs
    decoded = Image.open(io.BytesIO(d.to_png(image)))
    assert decoded.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_the_png_is_the_same_picture_deflated_by_isal_or_by_zlib(monkeypatch: pytest.MonkeyPatch) -> None:
    """ISA-L deflates the tables (five times quicker); where isal is not installed the standard library's zlib does:
    the same indices and palette either way."""
    assert png.isal_zlib is not None, "isal is a dependency (pyproject.toml)"
    rng = random.Random(9)
    image = Image.new("P", (640, 200))
    image.putdata([rng.randrange(200) if (i // 640) % 7 else (i // 9) % 200 for i in range(640 * 200)])
    image.putpalette([rng.randrange(256) for _ in range(3 * 200)])
    quick = d.to_png(image)
    monkeypatch.setattr(png, "isal_zlib", None)  # a platform without isal's wheels
    plain = d.to_png(image)
    assert quick != plain
    for encoded in (quick, plain):
        decoded = Image.open(io.BytesIO(encoded))
        assert decoded.tobytes() == image.tobytes() and decoded.getpalette() == image.getpalette()


def test_a_canvas_with_an_origin_draws_the_pixels_of_the_larger_image() -> None:
    """(Drawn at a shift of their own, a hex's corners a float's error from a whole pixel rounded the other way in
    one case in five here: some of Keyflower's hex edges came out a pixel wider.)"""
    rng = random.Random(4)
    for _ in range(60):
        cx, cy = rng.randrange(90, 210) + rng.choice([0, 0.5]), rng.randrange(90, 210) + rng.choice([0, 0.5, 0.37])
        r, width = rng.choice([44, 64, 72, rng.uniform(20, 50)]), rng.choice([1, 2, 3])
        corners = [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k))) for k in range(6)]
        ox, oy = 2 * int((cx - r - 6) // 2), 2 * int((cy - r - 6) // 2)
        size = (int(cx + r + 8) - ox, int(cy + r + 8) - oy)
        _, whole = d.canvas(300, 300, d.PANEL)
        _, part = d.canvas(*size, d.PANEL, origin=(ox, oy))
        for pen in (whole, part):
            pen.polygon(corners, fill=(120, 200, 90))
            pen.line([*corners, corners[0]], fill=d.INK, width=width, joint="curve")
            pen.ellipse((cx - 8.5, cy - 8.5, cx + 8.5, cy + 8.5), fill=(200, 30, 45), outline=d.INK, width=2)
            pen.rounded_rectangle((cx - r / 2, cy + 4, cx + r / 2, cy + 16), radius=5, fill=(255, 255, 255),
                                  outline=d.GRID, width=1)
            d.outline(pen, corners, d.HIGHLIGHT, 3)
            d.text(pen, (cx, cy - r / 3), "Hex", 15, d.INK, bold=True, anchor="mm")
        mask, stencil = d.stencil(*size, (ox, oy))
        stencil.polygon(corners, fill=255)
        expected = rgb(whole).crop((ox, oy, ox + size[0], oy + size[1]))
        assert rgb(part).tobytes() == expected.tobytes(), (cx, cy, r)
        shape = Image.new("L", (300, 300), 0)
        ImageDraw.Draw(shape).polygon(corners, fill=255)
        assert mask.tobytes() == shape.crop((ox, oy, ox + size[0], oy + size[1])).tobytes()


def test_clear_text_takes_a_line_away_and_leaves_the_rest_of_its_box() -> None:
    left, top, right, bottom = d.text_bounds((4, 22), "gold", 13, anchor="lm")
    ink = Image.new("L", (right - left, bottom - top), 0)
    ink.paste(255, (0, 0), fonts._mask("gold", 13, False).point([0] + [255] * 255))
    spot = next((x, y) for y in range(ink.height) for x in range(ink.width) if not ink.getpixel((x, y)))
    plain, pen = d.canvas(120, 40, (255, 255, 255))[1], d.canvas(120, 40, (255, 255, 255))[1]
    for canvas in (plain, pen):
        canvas.point((left + spot[0], top + spot[1]), fill=d.HIGHLIGHT)  # in the line's box, under no ink
    d.text(pen, (4, 22), "gold", 13, d.FAINT, anchor="lm")
    d.clear_text(pen, (4, 22), "gold", 13, (255, 255, 255), anchor="lm")
    for canvas in (plain, pen):
        d.text(canvas, (4, 22), "gold", 13, d.MUTED, anchor="lm")
    assert rgb(pen).tobytes() == rgb(plain).tobytes()
