"""Draw the app's icons (a card with a spade and the red star of a Bluke) into static/icons/.

Run ``.venv/bin/python scripts/draw_icons.py`` after changing the drawing; the PNGs are
committed, so neither the app nor its tests need Pillow at run time. Shapes are drawn at four
times the size and scaled down, which smooths the edges without any font (the same PNGs on
every machine). The maskable icon fills its square and keeps the card inside the central 80 %
that every launcher mask leaves visible (W3C "Web App Manifest", ``purpose: maskable``).
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image
from PIL import ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN, CARD, INK, RED = (18, 105, 75), (255, 255, 255), (26, 29, 27), (192, 57, 43)
SCALE = 4


def star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    """A five-pointed star, point up."""
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def spade(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A spade: two round lobes, a point above them and a flared stem below."""
    draw.ellipse((cx - 1.9 * r, cy - 0.6 * r, cx - 0.1 * r, cy + 1.2 * r), fill=INK)
    draw.ellipse((cx + 0.1 * r, cy - 0.6 * r, cx + 1.9 * r, cy + 1.2 * r), fill=INK)
    draw.polygon([(cx, cy - 2.2 * r), (cx - 1.78 * r, cy + 0.05 * r), (cx + 1.78 * r, cy + 0.05 * r)], fill=INK)
    draw.polygon([(cx, cy - 0.6 * r), (cx - 0.75 * r, cy + 2.0 * r), (cx + 0.75 * r, cy + 2.0 * r)], fill=INK)


def icon(size: int, maskable: bool) -> Image.Image:
    """One icon: the card on a green ground (rounded for "any", full bleed for "maskable")."""
    s = size * SCALE
    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, s, s), fill=GREEN)
        card_h = s * 0.56  # inside the 80 % safe circle with room to spare
    else:
        draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.22, fill=GREEN)
        card_h = s * 0.72
    card_w = card_h * 0.72
    card = Image.new("RGBA", (int(card_w), int(card_h)), (0, 0, 0, 0))
    cdraw = ImageDraw.Draw(card)
    cdraw.rounded_rectangle((0, 0, card_w - 1, card_h - 1), radius=card_w * 0.12, fill=CARD)
    spade(cdraw, card_w / 2, card_h * 0.47, card_w * 0.17)
    cdraw.polygon(star(card_w * 0.22, card_h * 0.15, card_w * 0.13, card_w * 0.055), fill=RED)
    cdraw.polygon(star(card_w * 0.78, card_h * 0.85, card_w * 0.13, card_w * 0.055), fill=RED)
    card = card.rotate(-8, resample=Image.Resampling.BICUBIC, expand=True)
    image.alpha_composite(card, (int((s - card.width) / 2), int((s - card.height) / 2)))
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "maskable-512.png", optimize=True)
    icon(180, maskable=True).convert("RGB").save(
        OUT / "apple-touch-icon.png", optimize=True
    )  # iOS wants no transparency
    # The favicon loads inline with every first page (assets.inline): a 32-colour palette keeps it
    # near half a kilobyte, and at 32 px it looks the same as with 64 colours (154 bytes more).
    icon(32, maskable=False).quantize(32, method=Image.Quantize.FASTOCTREE).save(OUT / "favicon-32.png", optimize=True)


if __name__ == "__main__":
    main()
