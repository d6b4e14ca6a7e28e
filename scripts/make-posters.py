#!/usr/bin/env python3
"""Writes the sample shows' posters (Sources/SeatServer/Web/Site/poster-*.svg): made here, from the
invented titles `seatkit serve` seeds, so the demo and the tests show posters without fetching any
image from the internet. 2:3 like a film poster (300 × 450), a gradient, the title in both languages,
the format. Re-run after changing a sample title: python3 scripts/make-posters.py"""
import html
import os

SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "SeatServer", "Web", "Site")
POSTERS = [
    ("homeward", "星际归途", "Homeward Among the Stars", "2D", ("#0b1d3a", "#3a5ba0"), "stars"),
    ("deep-sea", "深海", "The Deep Sea", "IMAX 3D", ("#03262e", "#0f7c8c"), "waves"),
    ("concert", "年终演唱会", "Year-End Concert", "LIVE", ("#3a0b2e", "#c2410c"), "lights"),
]


def motif(kind):
    if kind == "stars":
        dots = [(37 * k % 280 + 10, 53 * k % 260 + 20, 1 + k % 3) for k in range(1, 40)]
        return "".join(f'<circle cx="{x}" cy="{y}" r="{r / 2}" fill="#fff" opacity=".8"/>' for x, y, r in dots) + \
            '<circle cx="220" cy="120" r="46" fill="#f5d27a" opacity=".9"/>'
    if kind == "waves":
        return "".join(f'<path d="M0 {200 + 28 * k} q 75 -22 150 0 t 150 0" stroke="#7fe3f0" stroke-width="3" fill="none" opacity="{.9 - .12 * k}"/>' for k in range(6))
    return "".join(f'<path d="M150 300 L{40 + 44 * k} 0" stroke="#fde68a" stroke-width="10" opacity=".25"/>' for k in range(6)) + \
        '<circle cx="150" cy="300" r="26" fill="#fde68a" opacity=".9"/>'


for name, zh, en, badge, (top, bottom), kind in POSTERS:
    svg = f'''<svg xmlns="http://www.w3.org/2000/svg" width="300" height="450" viewBox="0 0 300 450" role="img" aria-label="{html.escape(en)}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{top}"/><stop offset="1" stop-color="{bottom}"/></linearGradient></defs>
<rect width="300" height="450" fill="url(#g)"/>
{motif(kind)}
<rect x="18" y="18" width="{14 + 9 * len(badge)}" height="24" rx="4" fill="#fff" opacity=".92"/>
<text x="25" y="35" font-family="Noto Sans, sans-serif" font-size="13" font-weight="700" fill="#202124">{html.escape(badge)}</text>
<text x="150" y="360" text-anchor="middle" font-family="Noto Sans CJK SC, PingFang SC, sans-serif" font-size="40" font-weight="700" fill="#fff">{html.escape(zh)}</text>
<text x="150" y="398" text-anchor="middle" font-family="Noto Sans, sans-serif" font-size="17" fill="#fff" opacity=".9">{html.escape(en)}</text>
</svg>
'''
    with open(os.path.join(SITE, f"poster-{name}.svg"), "w", encoding="utf-8") as f:
        f.write(svg)
    print(f"poster-{name}.svg")
