"""axe-core, the accessibility engine, run inside the page a test has open.

``vendor/axe.min.js`` is axe-core from npm (MPL-2.0, licence beside it), vendored so that a fresh
clone runs it with no download. It is evaluated through the DevTools protocol, which the pages'
Content-Security-Policy does not govern, so the page under test keeps its real CSP.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).with_name("vendor") / "axe.min.js"

#: WCAG 2.1 A and AA plus axe's best practices (landmarks, one h1 …): what the issue asked for.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@cache
def _source() -> str:
    return AXE.read_text(encoding="utf-8")


def violations(page: Any) -> list[str]:
    """axe-core's violations on the page as it is now, one line each (rule, impact, where)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_source())
    found = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']})
                 .then(r => r.violations.map(v => [v.id, v.impact,
                       v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '')
                                                   .replace(/\\s+/g, ' ').slice(0, 160))]))""",
        TAGS,
    )
    return [f"{rule} ({impact}): {' | '.join(nodes)}" for rule, impact, nodes in found]


def assert_accessible(page: Any, where: str) -> None:
    """No axe-core violation on the page (WCAG 2.1 AA and best practices)."""
    found = violations(page)
    assert not found, f"{where}: axe-core found {len(found)} violation(s):\n" + "\n".join(found)
