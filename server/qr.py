"""A link as a QR code, an inline SVG a phone's camera reads off the referee's screen (issue 31).

segno (the ``serve`` extra): pure Python, maintained, no network, SVG out. Error correction M
(15%): a screen photographed at an angle still reads; a seat link (about 80 characters) is a
version 5 code, 37 modules, drawn at 4 px a module.
"""

from __future__ import annotations

import html


def qr_svg(link: str, label: str) -> str:
    """``link`` as an inline SVG QR code named ``label`` for assistive technology."""
    import segno

    code = segno.make(link, error="m", micro=False)
    svg = code.svg_inline(scale=4, border=4, dark="#000", light="#fff", svgclass="qr", lineclass=None)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{html.escape(label, quote=True)}" ', 1)
